/**
 * The API keys of the control plane (`shared/database/api-keys.ts`, docs/api.md#api-keys), against a real PostgreSQL
 * (a database of the test's own) and once against the embedded PGlite: what is kept of a key, its lifecycle, the
 * per-organization limit, and the throttled record of its use.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { ApiKeys, type IssuedApiKey, Organizations, openDatabase } from '../../shared/database/index.js';
import { ApiKeyLimitReachedError, ApiKeyNotFoundError, OrganizationNotFoundError } from '../../shared/errors/index.js';
import { AdvancingClock } from '../helpers/advancing-clock.js';
import { useTestControlPlane } from '../helpers/postgres.js';

const KEY_SHAPE = /^plx_sk_[A-Za-z0-9_-]{43}$/;

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a refusal'),
    (error: unknown) => error,
  );
}

describe('API keys in the control plane', function () {
  this.timeout(60_000);

  describe('on PostgreSQL', () => {
    let clock: AdvancingClock;
    let keys: ApiKeys;
    let organizations: Organizations;

    const suite = useTestControlPlane();
    beforeEach(() => {
      clock = new AdvancingClock();
      keys = new ApiKeys(suite.database, { maxActivePerOrganization: 3, now: clock.now });
      organizations = new Organizations(suite.database);
    });

    it('should keep only the digest and the display prefix of a key, never its plaintext', async () => {
      const organization = await organizations.create('Acme');
      expect(organization.id).to.match(/^org_[A-Za-z0-9_-]{16}$/);
      const issued = await keys.create(organization.id, { label: 'ci' });
      expect(issued.secret).to.match(KEY_SHAPE);
      expect(issued.id).to.match(/^key_[A-Za-z0-9_-]{16}$/);
      const row = await suite.database.db
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', issued.id)
        .executeTakeFirst();
      expect(row).to.deep.include({
        organization_id: organization.id,
        label: 'ci',
        prefix: issued.secret.slice(0, 11),
        digest: createHash('sha256').update(issued.secret).digest('hex'),
        last_used_at: null,
        expires_at: null,
        revoked_at: null,
      });
      expect(JSON.stringify(row)).to.not.include(issued.secret.slice(7));
    });

    it('should verify an active key, and refuse it once revoked, rotated away or expired', async () => {
      const { id: organizationId } = await organizations.create('Acme');
      const lasting = await keys.create(organizationId, { label: 'lasting' });
      const expiring = await keys.create(organizationId, {
        label: 'expiring',
        expiresAt: new Date(clock.now() + 60_000),
      });
      expect(await keys.verify(lasting.secret)).to.deep.equal({ id: lasting.id, organizationId, expiresAt: null });
      expect(await keys.verify(expiring.secret)).to.deep.include({ id: expiring.id, organizationId });
      expect(await keys.verify(`${lasting.secret}x`)).to.equal(undefined);

      const rotated = await keys.rotate(organizationId, lasting.id);
      expect(rotated).to.deep.include({ label: 'lasting', expiresAt: null, organizationId });
      expect(await keys.verify(lasting.secret)).to.equal(undefined);
      expect(await keys.verify(rotated.secret)).to.deep.include({ id: rotated.id });

      await keys.revoke(organizationId, rotated.id);
      expect(await keys.verify(rotated.secret)).to.equal(undefined);
      clock.advance(60_000);
      expect(await keys.verify(expiring.secret)).to.equal(undefined);
      expect((await keys.list(organizationId)).map((key) => key.label)).to.deep.equal(['expiring']);
    });

    it('should list an organization’s live keys newest first, and no other organization’s', async () => {
      const acme = await organizations.create('Acme');
      const globex = await organizations.create('Globex');
      const issued: IssuedApiKey[] = [];
      for (const label of ['first', 'second', 'third']) issued.push(await keys.create(acme.id, { label }));
      await keys.create(globex.id, { label: 'theirs' });
      const listed = await keys.list(acme.id);
      expect(listed.map((key) => key.id)).to.deep.equal(issued.map((key) => key.id).reverse());
      const { secret: _secret, ...first } = issued[0]!;
      expect(listed[2]).to.deep.equal(first);
    });

    it('should refuse another organization’s key, an unknown key and a revoked key as not found', async () => {
      const acme = await organizations.create('Acme');
      const globex = await organizations.create('Globex');
      const theirs = await keys.create(globex.id, { label: 'theirs' });
      for (const attempt of [
        keys.revoke(acme.id, theirs.id),
        keys.rotate(acme.id, theirs.id),
        keys.revoke(acme.id, 'key_nope'),
      ])
        expect(await refusal(attempt)).to.be.instanceOf(ApiKeyNotFoundError);
      await keys.revoke(globex.id, theirs.id);
      expect(await refusal(keys.revoke(globex.id, theirs.id))).to.be.instanceOf(ApiKeyNotFoundError);
      expect(await refusal(keys.rotate(globex.id, theirs.id))).to.be.instanceOf(ApiKeyNotFoundError);
      expect(await refusal(keys.create('org_nope', { label: 'x' }))).to.be.instanceOf(OrganizationNotFoundError);
    });

    it('should hold an organization to its limit of active keys, counting neither revoked nor expired ones', async () => {
      const { id } = await organizations.create('Acme');
      await keys.create(id, { label: 'short', expiresAt: new Date(clock.now() + 1000) });
      const revoked = await keys.create(id, { label: 'revoked' });
      await keys.create(id, { label: 'third' });
      const refused = await refusal(keys.create(id, { label: 'fourth' }));
      expect(refused).to.be.instanceOf(ApiKeyLimitReachedError);
      expect((refused as Error).message).to.equal(
        `Organization '${id}' already holds 3 active API keys, the most it may hold (API_KEYS_MAX_PER_ORGANIZATION); revoke one first.`,
      );
      await keys.revoke(id, revoked.id);
      await keys.create(id, { label: 'fourth' });
      clock.advance(1000);
      await keys.create(id, { label: 'fifth' });
      expect(await refusal(keys.create(id, { label: 'sixth' }))).to.be.instanceOf(ApiKeyLimitReachedError);
      expect((await keys.list(id)).map((key) => key.label)).to.deep.equal(['fifth', 'fourth', 'third', 'short']);
    });

    it('should create one key past the limit when creations race, never two', async () => {
      const { id } = await organizations.create('Acme');
      await keys.create(id, { label: 'one' });
      await keys.create(id, { label: 'two' });
      const outcomes = await Promise.allSettled([1, 2, 3, 4].map((n) => keys.create(id, { label: `race-${n}` })));
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).to.have.length(1);
      expect((await keys.list(id)).length).to.equal(3);
    });

    it('should record a key’s use at most once a minute', async () => {
      const { id: organizationId } = await organizations.create('Acme');
      const issued = await keys.create(organizationId, { label: 'ci' });
      const usedAt = async () => (await keys.list(organizationId))[0]?.lastUsedAt?.getTime();
      await keys.touch(issued.id);
      const first = await usedAt();
      expect(first).to.be.a('number');
      clock.advance(30_000);
      await keys.touch(issued.id);
      expect(await usedAt()).to.equal(first);
      clock.advance(30_001);
      await keys.touch(issued.id);
      expect(await usedAt()).to.be.greaterThan(first!);
    });
  });

  describe('on the embedded database (PGlite)', () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'mthds-pglite-keys-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('should create, verify, rotate and revoke keys as on PostgreSQL', async () => {
      const controlPlane = await openDatabase({ embeddedDir: dir, poolMax: 1 });
      try {
        const keys = new ApiKeys(controlPlane, { maxActivePerOrganization: 2 });
        const { id } = await new Organizations(controlPlane).create('Acme');
        const issued = await keys.create(id, { label: 'ci' });
        expect(await keys.verify(issued.secret)).to.deep.equal({ id: issued.id, organizationId: id, expiresAt: null });
        const rotated = await keys.rotate(id, issued.id);
        expect(await keys.verify(issued.secret)).to.equal(undefined);
        await keys.create(id, { label: 'second' });
        expect(await refusal(keys.create(id, { label: 'third' }))).to.be.instanceOf(ApiKeyLimitReachedError);
        await keys.revoke(id, rotated.id);
        expect(await keys.verify(rotated.secret)).to.equal(undefined);
        expect((await keys.list(id)).map((key) => key.label)).to.deep.equal(['second']);
      } finally {
        await controlPlane.close();
      }
    });
  });
});
