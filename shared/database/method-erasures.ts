/**
 * The erasure of deleted methods (docs/api.md#methods-catalog): a deletion is claimed at once (the method is refused from
 * then on, and listed with its state), and the method and its versions are removed afterwards, off the request.
 */
import { randomBytes } from 'node:crypto';
import { swallowedErrors } from '../observability/index.js';
import { methodBeingDeleted, methodNotFound } from './method-rows.js';
import type { ControlPlaneDatabase } from './open-database.js';
import type { RandomBytes } from './organizations.js';
import type { MethodDeletionState } from './schema.js';

/** An erasure claimed: the method is refused from now on and removed by {@link MethodErasures.erase}. */
export interface MethodErasure {
  readonly methodId: string;
  readonly jobId: string;
  readonly state: MethodDeletionState;
}

/** Random bytes of an erasure id (16 base64url characters). */
const ID_BYTES = 12;

/** The erasures of the methods table, in domain terms. */
export class MethodErasures {
  private readonly random: RandomBytes;

  /**
   * @param database - the open control plane
   * @param options - the source of erasure ids; `crypto.randomBytes` by default
   */
  constructor(
    private readonly database: ControlPlaneDatabase,
    options: { random?: RandomBytes } = {},
  ) {
    this.random = options.random ?? randomBytes;
  }

  /**
   * Claim a method's erasure: from now on it is refused (but listed, with its state) until {@link MethodErasures.erase}
   * removes it. A failed erasure may be claimed again.
   * @param owner - the caller's own id
   * @param id - the method
   * @returns the claim, state `pending`
   * @throws MethodNotFoundError (404); MethodBeingDeletedError (409) when an erasure is already pending or under way
   */
  async begin(owner: string, id: string): Promise<MethodErasure> {
    const jobId = `del_${this.random(ID_BYTES).toString('base64url')}`;
    const claimed = await this.database.db
      .updateTable('methods')
      .set({ deletion_state: 'pending', deletion_job_id: jobId })
      .where('id', '=', id)
      .where('owner', '=', owner)
      .where((eb) => eb.or([eb('deletion_state', 'is', null), eb('deletion_state', '=', 'failed')]))
      .returning('id')
      .executeTakeFirst();
    if (claimed) return { methodId: id, jobId, state: 'pending' };
    const exists = await this.database.db
      .selectFrom('methods')
      .select('id')
      .where('id', '=', id)
      .where('owner', '=', owner)
      .executeTakeFirst();
    throw exists ? methodBeingDeleted(id) : methodNotFound(id);
  }

  /**
   * Remove a claimed method and its versions. Never rejects: a failure leaves the method in state `failed` (it may be
   * deleted again) and is counted in `mthds_swallowed_errors_total{site="database:method-erasure"}`.
   * @param erasure - the claim
   */
  async erase(erasure: Pick<MethodErasure, 'methodId' | 'jobId'>): Promise<void> {
    const { methodId, jobId } = erasure;
    const claimed = this.database.db
      .updateTable('methods')
      .where('id', '=', methodId)
      .where('deletion_job_id', '=', jobId);
    try {
      await claimed.set({ deletion_state: 'in_progress' }).execute();
      await this.database.db
        .deleteFrom('methods')
        .where('id', '=', methodId)
        .where('deletion_job_id', '=', jobId)
        .execute();
    } catch (error) {
      swallowedErrors.report('database:method-erasure', error);
      await claimed
        .set({ deletion_state: 'failed' })
        .execute()
        .catch((marking: unknown) => swallowedErrors.report('database:method-erasure', marking));
    }
  }

  /** The erasures claimed and not finished (pending or under way), to resume after a restart. */
  async unfinished(): Promise<MethodErasure[]> {
    const rows = await this.database.db
      .selectFrom('methods')
      .select(['id', 'deletion_job_id', 'deletion_state'])
      .where('deletion_state', 'in', ['pending', 'in_progress'])
      .execute();
    return rows.flatMap((row) =>
      row.deletion_job_id === null || row.deletion_state === null
        ? []
        : [{ methodId: row.id, jobId: row.deletion_job_id, state: row.deletion_state }],
    );
  }
}
