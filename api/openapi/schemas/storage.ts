/**
 * Bodies of the upload and storage-reference routes (docs/uploads.md), as the OpenAPI document describes them. Members
 * follow the hosted Pipelex API's shapes, which its SDK and the n8n node read.
 */
import { z } from 'zod';

const TIME = z.string().meta({ description: 'ISO 8601, UTC.' });
const URI = z.string().meta({ description: 'A storage reference, `pipelex-storage://<owner>/<leaf>/<name>`.' });

/** `POST /v1/upload`. */
export const UPLOAD_ANSWER = z
  .object({ uri: URI, filename: z.string().meta({ description: 'The file name as sent.' }) })
  .meta({ id: 'UploadAnswer', description: 'The reference of the uploaded object.' });

/** `POST /v1/upload/grant`. */
export const UPLOAD_GRANT = z
  .object({
    uri: URI,
    url: z.string().meta({ description: 'Where to PUT the bytes, once, without a credential.' }),
    headers: z
      .record(z.string(), z.string())
      .meta({ description: 'The headers the PUT must carry, exactly (`Content-Type`, `If-None-Match: *`).' }),
    expires_at: TIME,
    max_bytes: z.number().int().meta({ description: 'The size the PUT must send, in bytes (its `Content-Length`).' }),
  })
  .meta({ id: 'UploadGrant', description: 'A grant for one PUT of one object.' });

/** `POST /v1/resolve-storage-url`. */
export const RESOLVED_STORAGE_URL = z
  .object({
    url: z.string().meta({ description: 'A link to the object that needs no credential, until it expires.' }),
    expires_at: TIME,
    content_type: z.string().nullable().meta({ description: 'The object’s media type, from its name.' }),
  })
  .meta({ id: 'ResolvedStorageUrl', description: 'A link to a referenced object.' });

/** `POST /v1/resolve-storage-url/bulk`. */
export const BULK_RESOLVED_STORAGE_URLS = z
  .object({
    items: z.array(
      z
        .object({
          uri: z.string().meta({ description: 'The reference as sent.' }),
          url: z.string().nullable(),
          expires_at: TIME.nullable(),
          content_type: z.string().nullable(),
          error: z
            .object({ code: z.enum(['invalid_storage_uri', 'forbidden']), detail: z.string() })
            .nullable()
            .meta({ description: 'Why the reference was refused; null when it resolved.' }),
        })
        .meta({ id: 'BulkResolvedStorageUrl' }),
    ),
  })
  .meta({ id: 'BulkResolvedStorageUrls', description: 'One verdict per reference, in request order.' });
