import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { z } from 'zod';
import { BUNDLE_HEADER } from '../../../../shared/mthds/parse/blueprint.js';
import { CONCEPT_BLUEPRINT, CONCEPT_FIELD } from '../../../../shared/mthds/parse/concept-blueprint.js';
import {
  EXTRACT_SETTING,
  IMG_GEN_SETTING,
  LLM_SETTING,
  MODEL_REFERENCE,
  SEARCH_SETTING,
} from '../../../../shared/mthds/parse/model-settings.js';
import { PIPE_SCHEMAS } from '../../../../shared/mthds/parse/pipe-blueprints.js';
import { SUB_PIPE } from '../../../../shared/mthds/parse/sequence-steps.js';
import { TEMPLATE_BLUEPRINT } from '../../../../shared/mthds/parse/template-blueprint.js';

interface JsonSchemaObject {
  properties?: Record<string, unknown>;
  additionalProperties?: unknown;
}
const SCHEMA = JSON.parse(
  readFileSync(new URL('../../../../../shared/reference/mthds_schema.json', import.meta.url), 'utf8'),
) as JsonSchemaObject & {
  definitions: Record<string, JsonSchemaObject>;
};

function keysOf(schema: z.ZodType): string[] {
  return Object.keys((schema as unknown as { shape: Record<string, unknown> }).shape).sort();
}

function isStrict(schema: z.ZodType): boolean {
  const catchall = (schema as unknown as { _zod: { def: { catchall?: { _zod: { def: { type: string } } } } } })._zod.def
    .catchall;
  return catchall?._zod.def.type === 'never';
}

const MIRRORS: [string, z.ZodType][] = [
  ...(
    [
      'PipeLLM',
      'PipeFunc',
      'PipeImgGen',
      'PipeExtract',
      'PipeSearch',
      'PipeCompose',
      'PipeSequence',
      'PipeParallel',
      'PipeCondition',
      'PipeBatch',
    ] as const
  ).map((type): [string, z.ZodType] => [`${type}Blueprint`, PIPE_SCHEMAS[type]]),
  ['LLMSetting', LLM_SETTING],
  ['ImgGenSetting', IMG_GEN_SETTING],
  ['ExtractSetting', EXTRACT_SETTING],
  ['SearchSetting', SEARCH_SETTING],
  ['ModelReference', MODEL_REFERENCE],
  ['SubPipeBlueprint', SUB_PIPE],
  ['TemplateBlueprint', TEMPLATE_BLUEPRINT],
  ['ConceptBlueprint', CONCEPT_BLUEPRINT],
  ['ConceptStructureBlueprint', CONCEPT_FIELD],
];

/**
 * Keys beyond `mthds_schema.json`, accepted on purpose: the 0.16 OpenAPI's operator options (docs/pipes.md#common-fields) and the
 * newer reference's hints (docs/concepts.md#hints).
 */
const NEWER_KEYS: Record<string, readonly string[]> = {
  ConceptBlueprint: ['hints'],
  ConceptStructureBlueprint: ['hints'],
  PipeLLMBlueprint: ['templating_style'],
  PipeImgGenBlueprint: ['size'],
  PipeExtractBlueprint: ['include_raw_html', 'render_js'],
};

describe('blueprint schemas (mirror of mthds_schema.json)', () => {
  for (const [name, schema] of MIRRORS) {
    describe(`when comparing ${name}`, () => {
      const definition = SCHEMA.definitions[name];

      it('should have exactly the properties of the JSON schema', () => {
        const newer = NEWER_KEYS[name] ?? [];
        expect(keysOf(schema)).to.deep.equal([...Object.keys(definition?.properties ?? {}), ...newer].sort());
      });

      it('should refuse unknown keys exactly where the JSON schema does (and in structure fields, docs/concepts.md#structure-fields)', () => {
        expect(isStrict(schema)).to.equal(
          definition?.additionalProperties === false || name === 'ConceptStructureBlueprint',
        );
      });
    });
  }

  describe('when comparing the bundle header', () => {
    it('should have the top-level properties and refuse others', () => {
      expect(keysOf(BUNDLE_HEADER)).to.deep.equal(Object.keys(SCHEMA.properties ?? {}).sort());
      expect([SCHEMA.additionalProperties, isStrict(BUNDLE_HEADER)]).to.deep.equal([false, true]);
    });
  });
});
