import { expect } from 'chai';
import type { ModelReferenceCatalog } from '../../../../../shared/mthds/index.js';
import { buildLibrary } from '../../../../../shared/mthds/library/build-library.js';
import { judgeInputCapability } from '../../../../../shared/mthds/rules/pipes/judge-input-capability.js';
import { loadedBundles } from '../harness.js';
import { judgeBundle } from './judge-bundles.js';

const none = { presets: [], aliases: [], waterfalls: [] };
/**
 * A deck whose `@default-judgment` reads text only and whose `@eyes` reads text and images (no pdf); the waterfall
 * `~text-first` resolves on this boot to the text-only model, `~eyes-first` to the image reader, and `~unserved` to
 * no model this boot can serve (so it has no entry).
 */
const CATALOG: ModelReferenceCatalog = {
  llm: none,
  img_gen: none,
  extract: none,
  search: none,
  judgment: {
    presets: [],
    aliases: ['default-judgment', 'eyes'],
    waterfalls: ['text-first', 'eyes-first', 'unserved'],
    inputs: {
      'waterfall:text-first': { model: 'text-judge', inputs: ['text'] },
      'waterfall:eyes-first': { model: 'eye-judge', inputs: ['text', 'images'] },
      'alias:default-judgment': { model: 'text-judge', inputs: ['text'] },
      'alias:eyes': { model: 'eye-judge', inputs: ['text', 'images'] },
      'handle:eye-judge': { model: 'eye-judge', inputs: ['text', 'images'] },
    },
  },
};
const check = (text: string, models?: ModelReferenceCatalog) => {
  const bundles = loadedBundles(text);
  return judgeInputCapability.check({
    bundles,
    library: buildLibrary(bundles),
    mode: 'compat',
    ...(models ? { models } : {}),
  });
};
const PROMPT = 'prompt = "@message @photo @scan"\nquestion = "Urgent?"';
const MEDIA = 'message = "Text", photo = "Image", scan = "Document[]"';

describe('S4-judge-input-capability', () => {
  describe('when the judgment model does not read an image or document input', () => {
    it('should report PipeJudgeInputCapabilityError on each such input', () => {
      expect(check(judgeBundle(PROMPT, MEDIA), CATALOG)).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "PipeJudgeInputCapabilityError: PipeJudge 'judge_message' judges input 'photo', which is an image, and its judgment model 'text-judge' does not read images: it reads text. Name a judgment model that reads images, or turn the image into text with a step before this one.",
          error_type: 'unknown_validation_error',
          source: 'bundle-1.mthds',
          pipe_code: 'judge_message',
          domain_code: 'inbox',
          field_path: 'pipe.judge_message.inputs.photo',
          field_name: 'photo',
        },
        {
          category: 'pipe_validation',
          message:
            "PipeJudgeInputCapabilityError: PipeJudge 'judge_message' judges input 'scan', which is a document, and its judgment model 'text-judge' does not read documents: it reads text. Name a judgment model that reads documents, or turn the document into text with a step before this one.",
          error_type: 'unknown_validation_error',
          source: 'bundle-1.mthds',
          pipe_code: 'judge_message',
          domain_code: 'inbox',
          field_path: 'pipe.judge_message.inputs.scan',
          field_name: 'scan',
        },
      ]);
    });

    it('should judge a waterfall by the model it resolves to on this boot, named in the message', () => {
      const text = judgeBundle(PROMPT, MEDIA).replace('model = "@default-judgment"', 'model = "~text-first"');
      expect(check(text, CATALOG).map((item) => [item.field_path, item.message])).to.deep.equal([
        [
          'pipe.judge_message.inputs.photo',
          "PipeJudgeInputCapabilityError: PipeJudge 'judge_message' judges input 'photo', which is an image, and its judgment model 'text-judge' does not read images: it reads text. Name a judgment model that reads images, or turn the image into text with a step before this one.",
        ],
        [
          'pipe.judge_message.inputs.scan',
          "PipeJudgeInputCapabilityError: PipeJudge 'judge_message' judges input 'scan', which is a document, and its judgment model 'text-judge' does not read documents: it reads text. Name a judgment model that reads documents, or turn the document into text with a step before this one.",
        ],
      ]);
      const eyes = judgeBundle(PROMPT, MEDIA).replace('model = "@default-judgment"', 'model = "waterfall:eyes-first"');
      expect(check(eyes, CATALOG).map((item) => item.field_path)).to.deep.equal(['pipe.judge_message.inputs.scan']);
    });

    it('should judge a bare handle by its spec', () => {
      const text = judgeBundle(PROMPT, MEDIA).replace('model = "@default-judgment"', 'model = "eye-judge"');
      expect(check(text, CATALOG).map((item) => item.field_path)).to.deep.equal(['pipe.judge_message.inputs.scan']);
    });
  });

  describe('when the model reads them, its inputs are unknown, a waterfall serves none, or no deck is known', () => {
    it('should pass', () => {
      const eyes = judgeBundle('prompt = "@message @photo"\nquestion = "Urgent?"', 'message = "Text", photo = "Image"');
      expect(check(eyes.replace('@default-judgment', '@eyes'), CATALOG)).to.deep.equal([]);
      expect(check(judgeBundle('prompt = "@message"\nquestion = "Urgent?"'), CATALOG)).to.deep.equal([]);
      const unknown = judgeBundle(PROMPT, MEDIA).replace('model = "@default-judgment"', 'model = "gpt-4o"');
      expect(check(unknown, CATALOG)).to.deep.equal([]);
      const unserved = judgeBundle(PROMPT, MEDIA).replace('model = "@default-judgment"', 'model = "~unserved"');
      expect(check(unserved, CATALOG)).to.deep.equal([]);
      expect(check(judgeBundle(PROMPT, MEDIA))).to.deep.equal([]);
    });
  });
});
