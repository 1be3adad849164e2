/**
 * The organizations of the control plane (docs/api.md#organizations): the tenants that own runs, methods, API keys and
 * storage scopes. An organization's id, `org_` and 16 random URL-safe characters, is one path-safe segment, so it can
 * be the owner of runs and the first segment of their storage scopes (docs/run-ownership.md).
 */
import { randomBytes } from 'node:crypto';
import type { ControlPlaneDatabase } from './open-database.js';
import type { OrganizationRow } from './schema.js';

/** An organization, as kept. */
export interface Organization {
  /** `org_…`, or the `org_id` a trusted JWT named (docs/run-ownership.md). */
  readonly id: string;
  readonly name: string;
  /** When it was created (the database's clock). */
  readonly createdAt: Date;
  /** Its share of the run queue (docs/fair-dispatch.md): a positive integer, 1 unless an operator set it. */
  readonly runShare: number;
  /** The highest `priority` its runs may ask for (0–10); null: the deployment's `RUN_PRIORITY_CEILING`. */
  readonly priorityCeiling: number | null;
  /**
   * Its own share of each provider rate limit, in (0, 1] (docs/inference.md#organization-shares); null: the
   * deployment's `INFERENCE_ORG_RATE_SHARE`.
   */
  readonly inferenceRateShare: number | null;
}

/** The terms of an organization an operator may change (docs/fair-dispatch.md#shares). */
export interface DispatchTerms {
  runShare?: number;
  priorityCeiling?: number | null;
}

/** Draws `size` random bytes. */
export type RandomBytes = (size: number) => Buffer;

/** Random bytes of a new organization id (12 bytes: 16 base64url characters). */
const ID_BYTES = 12;

function organizationOf(row: OrganizationRow): Organization {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    runShare: row.run_share,
    priorityCeiling: row.priority_ceiling,
    inferenceRateShare: row.inference_rate_share,
  };
}

/** The organizations table, in domain terms. */
export class Organizations {
  /**
   * @param database - the open control plane
   * @param random - the source of new ids; `crypto.randomBytes` by default
   */
  constructor(
    private readonly database: ControlPlaneDatabase,
    private readonly random: RandomBytes = randomBytes,
  ) {}

  /**
   * Create an organization.
   * @param name - its display name (checked by the caller: 1 to 200 characters)
   * @returns the new organization, with its `org_…` id
   */
  async create(name: string): Promise<Organization> {
    const row = await this.database.db
      .insertInto('organizations')
      .values({ id: `org_${this.random(ID_BYTES).toString('base64url')}`, name })
      .returningAll()
      .executeTakeFirstOrThrow();
    return organizationOf(row);
  }

  /**
   * Find an organization.
   * @param id - its id
   * @returns it, or undefined when no organization has this id
   */
  async find(id: string): Promise<Organization | undefined> {
    const row = await this.database.db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? organizationOf(row) : undefined;
  }

  /**
   * Change an organization's terms at the dispatch gate.
   * @param id - its id
   * @param terms - the terms to change (absent ones are kept)
   * @returns the organization as changed, or undefined when no organization has this id
   */
  async setDispatchTerms(id: string, terms: DispatchTerms): Promise<Organization | undefined> {
    const row = await this.database.db
      .updateTable('organizations')
      .set({
        ...(terms.runShare === undefined ? {} : { run_share: terms.runShare }),
        ...(terms.priorityCeiling === undefined ? {} : { priority_ceiling: terms.priorityCeiling }),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? organizationOf(row) : undefined;
  }

  /**
   * Give an organization its own share of the provider rate limits, or take it back.
   * @param id - its id
   * @param share - in (0, 1] (checked by the caller; the column refuses anything else); null: the deployment's
   * @returns the organization as changed, or undefined when no organization has this id
   */
  async setInferenceRateShare(id: string, share: number | null): Promise<Organization | undefined> {
    const row = await this.database.db
      .updateTable('organizations')
      .set({ inference_rate_share: share })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? organizationOf(row) : undefined;
  }

  /**
   * Record an organization a trusted credential names (a JWT's `org_id`), named after its id, unless it exists.
   * @param id - the organization's id, already checked to be one path-safe segment
   */
  async ensure(id: string): Promise<void> {
    await this.database.db
      .insertInto('organizations')
      .values({ id, name: id })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute();
  }
}
