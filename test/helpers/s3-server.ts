/**
 * A real S3-protocol server for tests: s3rver on 127.0.0.1, port 0, with one bucket, its objects in a temporary
 * directory removed on close. It accepts the access key `S3RVER` with the secret `S3RVER`; {@link startS3Server} puts
 * them in `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` (the AWS SDK's default chain, as a deployment sets them) for as
 * long as the server runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { Environment } from '../../shared/config/index.js';

/** A running server. */
export interface S3Server {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  bucket: string;
  /** The `STORAGE_*` variables of a deployment on this bucket. */
  environment: Environment;
  close(): Promise<void>;
}

const CREDENTIAL_VARIABLES = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'] as const;

/**
 * Start a server with one bucket.
 * @param bucket - the bucket's name
 */
export async function startS3Server(bucket = 'mthds-test'): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), 'mthds-test-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const address = await server.run();
  const saved = CREDENTIAL_VARIABLES.map((name) => process.env[name]);
  for (const name of CREDENTIAL_VARIABLES) process.env[name] = 'S3RVER';
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket,
    environment: {
      STORAGE_BACKEND: 's3',
      STORAGE_S3_BUCKET: bucket,
      STORAGE_S3_ENDPOINT: endpoint,
      STORAGE_S3_REGION: 'us-east-1',
      STORAGE_S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      await server.close();
      CREDENTIAL_VARIABLES.forEach((name, index) => {
        const value = saved[index];
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      });
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
