import os from 'node:os';
import { expect } from 'chai';
import { loadSettings } from '../../../shared/config/index.js';
import { refusal } from '../../helpers/settings-refusal.js';

describe('loadSettings', () => {
  describe('when nothing is set', () => {
    it('should give the embedded defaults of spec §1.1', () => {
      const settings = loadSettings({});
      expect(settings.port).to.equal(8081);
      expect(settings.auth).to.deep.equal({ mode: 'none' });
      expect(settings.maxRequestBodyMib).to.equal(100);
      expect(settings.maxMthdsFileKib).to.equal(1024);
      expect(settings.maxJsonDepth).to.equal(64);
      expect(settings.errorDisclosure).to.equal('verbose');
      expect(settings.serviceEnv).to.equal('dev');
      expect(settings.methodCache).to.include({ maxClones: 64, maxTotalKib: 524288, maxAgeHours: 24 });
      expect(settings.methodRef).to.include({ resolveTtlSeconds: 300, headResolveTtlSeconds: 30 });
      expect(settings.fetchLimits).to.deep.equal({
        maxPackageFiles: 256,
        maxPackageTotalKib: 8192,
        maxScannedManifests: 100,
        maxManifestFileKib: 256,
      });
      expect(settings.inference.profile).to.equal('auto');
      expect(settings.compute).to.deep.equal({
        threads: Math.max(1, os.availableParallelism() - 1),
        warmThreads: Math.max(1, os.availableParallelism() - 1),
        queueMax: 32,
        queueDeadlineMs: 30000,
        timeoutMs: 60000,
        heapMib: 1024,
        idleTimeoutMs: 60000,
        answerCacheMib: 32,
      });
    });

    it('should cap connections and bound request heads by default, and run one quarantine at a time', () => {
      const settings = loadSettings({});
      expect(settings.http).to.deep.equal({
        maxConnections: 4096,
        maxConnectionsPerIp: 256,
        headersTimeoutMs: 10000,
        requestTimeoutMs: 300000,
        keepAliveTimeoutMs: 5000,
      });
      expect(settings.quarantine).to.deep.equal({ heapMib: 512, timeoutMs: 600000, concurrency: 1 });
    });

    it('should refuse HTTP_HEADERS_TIMEOUT_MS above HTTP_REQUEST_TIMEOUT_MS, and a zero connection cap', () => {
      expect(refusal({ HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '10000' })).to.include(
        'HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS (10000)',
      );
      expect(refusal({ HTTP_MAX_CONNECTIONS: '0' })).to.include('HTTP_MAX_CONNECTIONS');
      expect(refusal({ RUN_QUARANTINE_CONCURRENCY: '0' })).to.include('RUN_QUARANTINE_CONCURRENCY');
      expect(loadSettings({ HTTP_MAX_CONNECTIONS_PER_IP: '0' }).http.maxConnectionsPerIp).to.equal(0);
    });

    it('should refuse a COMPUTE_HEAP_MIB that cannot hold a body of MAX_REQUEST_BODY_MIB decoded at once', () => {
      expect(refusal({ MAX_REQUEST_BODY_MIB: '100', COMPUTE_HEAP_MIB: '256' })).to.include(
        'COMPUTE_HEAP_MIB: must be at least 464 (4 × MAX_REQUEST_BODY_MIB + 64)',
      );
      expect(loadSettings({ MAX_REQUEST_BODY_MIB: '16', COMPUTE_HEAP_MIB: '128' }).compute.heapMib).to.equal(128);
    });

    it('should keep COMPUTE_WARM_THREADS within COMPUTE_THREADS', () => {
      expect(loadSettings({ COMPUTE_THREADS: '2', COMPUTE_WARM_THREADS: '8' }).compute).to.include({
        threads: 2,
        warmThreads: 2,
      });
    });
  });

  describe('when a value is invalid', () => {
    it('should refuse a MAX_JSON_DEPTH that is not a positive integer, naming the variable', () => {
      expect(refusal({ MAX_JSON_DEPTH: '0' })).to.include('MAX_JSON_DEPTH');
      expect(refusal({ MAX_JSON_DEPTH: 'deep' })).to.include('MAX_JSON_DEPTH');
    });

    it('should refuse an unknown AUTH_MODE naming the variable', () => {
      expect(refusal({ AUTH_MODE: 'oauth' })).to.include('AUTH_MODE');
    });

    it('should refuse api_key mode without API_KEY', () => {
      expect(refusal({ AUTH_MODE: 'api_key' })).to.include('API_KEY: required when AUTH_MODE=api_key');
    });

    it('should refuse jwt mode without JWT_SECRET_KEY', () => {
      expect(refusal({ AUTH_MODE: 'jwt', JWT_SECRET_KEY: '  ' })).to.include('JWT_SECRET_KEY');
    });

    it('should refuse a non-numeric MAX_REQUEST_BODY_MIB', () => {
      expect(refusal({ MAX_REQUEST_BODY_MIB: 'lots' })).to.include('MAX_REQUEST_BODY_MIB');
    });

    it('should refuse a MAX_MTHDS_FILE_KIB of zero', () => {
      expect(refusal({ MAX_MTHDS_FILE_KIB: '0' })).to.include('MAX_MTHDS_FILE_KIB');
    });

    it('should refuse a negative or fractional resolution TTL, and accept 0 (resolve on every request)', () => {
      expect(refusal({ METHOD_REF_RESOLVE_TTL_SECONDS: '-1' })).to.include('METHOD_REF_RESOLVE_TTL_SECONDS');
      expect(refusal({ METHOD_REF_HEAD_RESOLVE_TTL_SECONDS: '1.5' })).to.include('METHOD_REF_HEAD_RESOLVE_TTL_SECONDS');
      expect(
        loadSettings({ METHOD_REF_RESOLVE_TTL_SECONDS: '0', METHOD_REF_HEAD_RESOLVE_TTL_SECONDS: '0' }).methodRef,
      ).to.include({ resolveTtlSeconds: 0, headResolveTtlSeconds: 0 });
    });

    it('should hold an organization to 50 active API keys by default, and refuse a limit of zero', () => {
      expect(loadSettings({}).apiKeys).to.deep.equal({ maxPerOrganization: 50 });
      expect(refusal({ API_KEYS_MAX_PER_ORGANIZATION: '0' })).to.include('API_KEYS_MAX_PER_ORGANIZATION');
    });

    it('should refuse an unknown ERROR_DISCLOSURE', () => {
      expect(refusal({ ERROR_DISCLOSURE: 'quiet' })).to.include('ERROR_DISCLOSURE');
    });

    it('should refuse an ERROR_DOCS_URL that is not an http(s) URL', () => {
      expect(refusal({ ERROR_DOCS_URL: 'docs.example.com' })).to.equal(
        "Invalid configuration, refusing to start: ERROR_DOCS_URL: must be an http:// or https:// URL, or empty (this server's own /errors/ pages)",
      );
      expect(refusal({ ERROR_DOCS_URL: 'ftp://docs.example.com' })).to.include('ERROR_DOCS_URL');
    });
  });

  describe('STORAGE_*', () => {
    it('should default to the filesystem backend under ./var/storage, with the documented thresholds and retention', () => {
      const { storage } = loadSettings({});
      expect(storage).to.deep.include({
        backend: 'fs',
        dir: `${process.cwd()}/var/storage`,
        payloadOffloadBytes: 64 * 1024,
        inlineMediaMaxBytes: 16384,
        urlTtlSeconds: 3600,
        retentionHours: { assets: 168, generated: 720, results: 720, payloads: 48, submissions: 2160, uploads: 168 },
        uploads: { maxBytes: 100 * 1024 * 1024, grantTtlSeconds: 900, signingSecret: undefined },
        sweepMinutes: 60,
      });
    });

    it('should read the upload settings, and refuse a cap or a grant lifetime that is not a positive integer', () => {
      const { storage } = loadSettings({
        STORAGE_UPLOAD_MAX_MIB: '8',
        STORAGE_UPLOAD_GRANT_TTL_SECONDS: '60',
        STORAGE_SIGNING_SECRET: 'a-shared-signing-key',
        STORAGE_RETENTION_UPLOADS_HOURS: '0',
      });
      expect(storage.uploads).to.deep.equal({
        maxBytes: 8 * 1024 * 1024,
        grantTtlSeconds: 60,
        signingSecret: 'a-shared-signing-key',
      });
      expect(storage.retentionHours.uploads).to.equal(0);
      expect(refusal({ STORAGE_UPLOAD_MAX_MIB: '0' })).to.include('STORAGE_UPLOAD_MAX_MIB');
      expect(refusal({ STORAGE_UPLOAD_GRANT_TTL_SECONDS: 'soon' })).to.include('STORAGE_UPLOAD_GRANT_TTL_SECONDS');
    });

    it('should read the S3 backend settings', () => {
      const { storage } = loadSettings({
        STORAGE_BACKEND: ' S3 ',
        STORAGE_S3_BUCKET: 'runs',
        STORAGE_S3_ENDPOINT: 'http://minio:9000',
        STORAGE_S3_REGION: 'eu-west-3',
        STORAGE_S3_FORCE_PATH_STYLE: 'true',
      });
      expect(storage.backend).to.equal('s3');
      expect(storage.s3).to.deep.equal({
        bucket: 'runs',
        endpoint: 'http://minio:9000',
        region: 'eu-west-3',
        forcePathStyle: true,
      });
    });

    it('should refuse the S3 backend without a bucket, an unknown backend, a bad endpoint and a tiny inline limit', () => {
      expect(refusal({ STORAGE_BACKEND: 's3' })).to.include('STORAGE_S3_BUCKET: required when STORAGE_BACKEND=s3');
      expect(refusal({ STORAGE_BACKEND: 'gcs' })).to.include('STORAGE_BACKEND');
      expect(refusal({ STORAGE_BACKEND: 's3', STORAGE_S3_BUCKET: 'b', STORAGE_S3_ENDPOINT: 'minio:9000' })).to.include(
        'STORAGE_S3_ENDPOINT',
      );
      expect(refusal({ STORAGE_INLINE_MEDIA_MAX_BYTES: '100' })).to.include('STORAGE_INLINE_MEDIA_MAX_BYTES');
    });
  });

  describe('ERROR_DOCS_URL', () => {
    it("should default to empty: problem types are this server's own /errors/ pages", () => {
      expect(loadSettings({}).errorDocsUrl).to.equal('');
    });

    it('should keep an absolute base without its trailing slashes', () => {
      expect(loadSettings({ ERROR_DOCS_URL: ' https://runner.example.com/docs// ' }).errorDocsUrl).to.equal(
        'https://runner.example.com/docs',
      );
    });
  });

  describe('when values need normalising', () => {
    it('should accept case and whitespace variants of enumerations', () => {
      const settings = loadSettings({ ERROR_DISCLOSURE: ' Strict ', AUTH_MODE: 'API_KEY', API_KEY: 'k' });
      expect(settings.errorDisclosure).to.equal('strict');
      expect(settings.auth).to.deep.equal({ mode: 'api_key', apiKey: 'k' });
    });
  });
});
