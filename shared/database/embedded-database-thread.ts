/**
 * The worker thread that holds the embedded database (PGlite, docs/control-plane.md#boot-and-readiness): it opens
 * the data directory it is given, answers `ready`, then runs each query the owning thread sends, in order, and answers
 * its rows or its error's fields; `close` closes the database. Entry module of `embedded-database.ts`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import type { EmbeddedReply, EmbeddedRequest } from './embedded-database-messages.js';

const port = parentPort!;
const post = (reply: EmbeddedReply) => port.postMessage(reply);

/** The own fields of a thrown value (a PGlite `DatabaseError` carries `code`, `detail`, `constraint`, …). */
function fieldsOf(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: Record<string, unknown> = { name: error.name, message: error.message };
  for (const [key, value] of Object.entries(error))
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  return fields;
}

try {
  const database = new PGlite((workerData as { dir: string }).dir);
  await database.waitReady;
  port.on('message', (request: EmbeddedRequest) => {
    if (request.kind === 'close') {
      database.close().then(
        () => post({ kind: 'closed' }),
        (error: unknown) => post({ kind: 'closed', error: fieldsOf(error) }),
      );
      return;
    }
    database.query(request.sql, request.params).then(
      (result) =>
        post({
          kind: 'result',
          id: request.id,
          rows: result.rows,
          ...(result.affectedRows === undefined ? {} : { affectedRows: result.affectedRows }),
        }),
      (error: unknown) => post({ kind: 'error', id: request.id, error: fieldsOf(error) }),
    );
  });
  post({ kind: 'ready' });
} catch (error) {
  post({ kind: 'failed', error: fieldsOf(error) });
}
