/**
 * Whose share of the provider rate limits a run counts against, at the edge (docs/inference.md#organization-shares):
 * the caller's organization with its own share, a JWT caller of no organization, the deployment principal; and the
 * cached read of organizations' shares, which never fails a run.
 */
import { expect } from 'chai';
import type { Identity } from '../../../api/middleware/authenticate.js';
import { RATE_SHARE_CACHE_TTL_MS, rateShareLookup, runRateTenant } from '../../../api/rate-tenants.js';
import type { Tenancy } from '../../../api/tenancy.js';
import type { Organization } from '../../../shared/database/index.js';

/** Repositories whose organizations are `shares` (an id mapped to its share), counting the reads; `broken` fails them. */
function tenancyOf(shares: Record<string, number | null>, reads: string[], broken = false): Promise<Tenancy> {
  const organizations = {
    async find(id: string): Promise<Organization | undefined> {
      reads.push(id);
      if (broken) throw new Error('the control plane is down');
      const share = shares[id];
      return share === undefined
        ? undefined
        : { id, name: id, createdAt: new Date(0), runShare: 1, priorityCeiling: null, inferenceRateShare: share };
    },
  };
  return Promise.resolve({ organizations } as unknown as Tenancy);
}

const caller = (userId: string, organizationId?: string): Identity => ({
  userId,
  storageScopes: [],
  operator: false,
  ...(organizationId === undefined ? {} : { organizationId }),
});

describe('rate tenants at the edge (api/rate-tenants.ts)', () => {
  it("should name the caller's organization with its own share, a JWT caller of none, and not the principal", async () => {
    const reads: string[] = [];
    const shares = rateShareLookup(tenancyOf({ org_a: 0.25, org_b: null }, reads), { now: () => 0 });
    expect(await runRateTenant(caller('org_a', 'org_a'), shares)).to.deep.equal({ key: 'org_a', share: 0.25 });
    expect(await runRateTenant(caller('ada', 'org_b'), shares), 'a JWT with org_id').to.deep.equal({ key: 'org_b' });
    expect(await runRateTenant(caller('ada'), shares), 'a JWT without org_id').to.deep.equal({ key: 'ada' });
    expect(await runRateTenant(caller('single-tenant'), shares)).to.equal(undefined);
    expect(await runRateTenant(caller('org_a', 'org_a')), 'no control plane').to.deep.equal({ key: 'org_a' });
    expect(reads, 'organizations only, each once').to.deep.equal(['org_a', 'org_b']);
  });

  it('should read a share again once its cache expired, and take a failed read for no share of its own', async () => {
    let now = 1_000_000;
    const reads: string[] = [];
    const shares = rateShareLookup(tenancyOf({ org_a: 0.5 }, reads), { now: () => now });
    await shares('org_a');
    now += RATE_SHARE_CACHE_TTL_MS;
    await shares('org_a');
    now += 1;
    expect(await shares('org_a')).to.equal(0.5);
    expect(reads).to.deep.equal(['org_a', 'org_a']);
    const down = rateShareLookup(tenancyOf({ org_a: 0.5 }, [], true), { now: () => 0 });
    expect(await down('org_a')).to.equal(null);
  });
});
