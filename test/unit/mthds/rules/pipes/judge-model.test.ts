import { expect } from 'chai';
import type { ModelReferenceCatalog } from '../../../../../shared/mthds/index.js';
import { buildLibrary } from '../../../../../shared/mthds/library/build-library.js';
import { judgeModel } from '../../../../../shared/mthds/rules/pipes/judge-model.js';
import { loadedBundles } from '../harness.js';
import { judgeBundle } from './judge-bundles.js';

const none = { presets: [], aliases: [], waterfalls: [] };
const catalog = (hasDefault: boolean): ModelReferenceCatalog => ({
  llm: none,
  img_gen: none,
  extract: none,
  search: none,
  judgment: { presets: [], aliases: ['default-judgment'], waterfalls: [], hasDefault },
});
const check = (text: string, models?: ModelReferenceCatalog) => {
  const bundles = loadedBundles(text);
  return judgeModel.check({ bundles, library: buildLibrary(bundles), mode: 'compat', ...(models ? { models } : {}) });
};
const WITHOUT_MODEL = judgeBundle('prompt = "@message"\nquestion = "Urgent?"').replace(
  'model = "@default-judgment"\n',
  '',
);

describe('S4-judge-model', () => {
  describe('when a PipeJudge names no model and the judgment deck has no default', () => {
    it('should report JudgmentModelMissingError', () => {
      expect(check(WITHOUT_MODEL, catalog(false))).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "JudgmentModelMissingError: Pipe 'judge_message' names no judgment model and the model deck's [judgment] category has no choice_default; set model (e.g. \"@default-judgment\").",
          error_type: 'unknown_validation_error',
          source: 'bundle-1.mthds',
          pipe_code: 'judge_message',
          domain_code: 'inbox',
          field_path: 'pipe.judge_message.model',
          field_name: 'model',
        },
      ]);
    });
  });

  describe('when the deck has a default, the pipe names a model, or no deck is known', () => {
    it('should pass', () => {
      expect(check(WITHOUT_MODEL, catalog(true))).to.deep.equal([]);
      expect(check(judgeBundle('prompt = "@message"\nquestion = "Urgent?"'), catalog(false))).to.deep.equal([]);
      expect(check(WITHOUT_MODEL)).to.deep.equal([]);
    });
  });
});
