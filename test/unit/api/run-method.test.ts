/**
 * The sources of a run named by `method_id` (api/run-method.ts; docs/methods.md#method_id): a stored method alone runs
 * the content its selector names and the submission carries its link with the version; beside inline sources the
 * inline sources run and the link has no version.
 */
import { expect } from 'chai';
import type { MethodCatalog } from '../../../api/method-catalog.js';
import type { Identity } from '../../../api/middleware/authenticate.js';
import { resolveRunSources } from '../../../api/run-method.js';
import { parseRunRequest, toSubmission } from '../../../api/run-request.js';
import type { MethodVersionSelector, SelectedSources } from '../../../shared/database/index.js';
import type { MethodFetcher } from '../../../shared/methods/index.js';

const STORED = 'domain = "stored"\nmain_pipe = "p"\n';
const INLINE = 'domain = "inline"\nmain_pipe = "p"\n';
const IDENTITY: Identity = { userId: 'org_owner', storageScopes: [], operator: false, organizationId: 'org_owner' };

/** A catalog whose one method, `mt_known`, selects as told; it records what it was asked. */
function catalog(asked: unknown[]): Promise<MethodCatalog> {
  const stub = {
    versions: {
      select: async (owner: string, id: string, selector: MethodVersionSelector): Promise<SelectedSources> => {
        asked.push(['select', owner, id, selector]);
        return { methodId: id, mthds: STORED, python: '', version: typeof selector === 'number' ? selector : null };
      },
    },
    methods: {
      get: async (owner: string, id: string) => {
        asked.push(['get', owner, id]);
        return {};
      },
    },
  };
  // a stub of the two calls run sources make; the rest of the catalog is never reached
  return Promise.resolve(stub as unknown as MethodCatalog);
}

const fetcher = {} as MethodFetcher;
const bundleLimits = { maxFiles: 8, maxTotalBytes: 1024 * 1024 };
const context = { requestId: 'r1', ownership: { owner: 'org_owner', storageScope: 'org_owner' }, honourRunId: false };

describe('resolveRunSources with method_id', () => {
  describe('when method_id alone names a version', () => {
    it('should run the selected content, labelled by the method id, and link the version', async () => {
      const asked: unknown[] = [];
      const body = parseRunRequest({ method_id: 'mt_known@3', inputs: {} });
      const run = await resolveRunSources(body, { bundleLimits, fetcher, catalog: catalog(asked), identity: IDENTITY });
      expect(run).to.deep.equal({
        sources: [{ content: STORED, source: 'mt_known' }],
        pipeCode: null,
        methodProvenance: null,
        methodLink: { methodId: 'mt_known', version: 3 },
      });
      expect(asked).to.deep.equal([['select', 'org_owner', 'mt_known', 3]]);
      expect(toSubmission(body, run, context).methodLink).to.deep.equal({ methodId: 'mt_known', version: 3 });
    });

    it('should ask for the latest version of a bare id and the draft of @draft', async () => {
      const asked: unknown[] = [];
      for (const methodId of ['mt_known', 'mt_known@draft'])
        await resolveRunSources(parseRunRequest({ method_id: methodId }), {
          bundleLimits,
          fetcher,
          catalog: catalog(asked),
          identity: IDENTITY,
        });
      expect(asked).to.deep.equal([
        ['select', 'org_owner', 'mt_known', 'latest'],
        ['select', 'org_owner', 'mt_known', 'draft'],
      ]);
    });
  });

  describe('when a bare method_id comes beside inline sources', () => {
    it('should run the inline sources and link the method without a version', async () => {
      const asked: unknown[] = [];
      const body = parseRunRequest({ method_id: 'mt_known', mthds_contents: [INLINE], pipe_code: 'p' });
      const run = await resolveRunSources(body, { bundleLimits, fetcher, catalog: catalog(asked), identity: IDENTITY });
      expect(run).to.deep.equal({
        sources: [{ content: INLINE, source: null }],
        pipeCode: 'p',
        methodProvenance: null,
        methodLink: { methodId: 'mt_known', version: null },
      });
      expect(asked).to.deep.equal([['get', 'org_owner', 'mt_known']]);
      expect(toSubmission(body, run, context).methodLink).to.deep.equal({ methodId: 'mt_known', version: null });
    });
  });

  describe('when no method_id is sent', () => {
    it('should link nothing', async () => {
      const body = parseRunRequest({ mthds_contents: [INLINE] });
      const run = await resolveRunSources(body, { bundleLimits, fetcher, catalog: catalog([]), identity: IDENTITY });
      expect(run.methodLink).to.equal(null);
      expect(toSubmission(body, run, context)).to.not.have.property('methodLink');
    });
  });
});
