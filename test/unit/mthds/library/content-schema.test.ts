import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'chai';
import { sample } from '../../../helpers/corpus.js';
import { libraryOf as library } from '../../../helpers/library.js';

function validator(schema: Record<string, unknown>): (data: unknown) => boolean {
  const validate = new Ajv2020({ strict: false }).compile(schema);
  return (data) => validate(data);
}

const ALL_TYPES = `domain = "hr"
[concept.Skill]
description = "A skill"
[concept.Skill.structure]
name = { type = "text", description = "Name", required = true }
[concept.Candidate]
description = "A candidate"
[concept.Candidate.structure]
name = { type = "text", description = "Full name", required = true }
age = { type = "integer", description = "Age" }
score = { type = "number", description = "Score", default_value = 0.5 }
hired = { type = "boolean", description = "Hired" }
born = { type = "date", description = "Birth date" }
seniority = { type = "text", description = "Level", choices = ["junior", "senior"], required = true }
tags = { type = "list", description = "Tags" }
skills = { type = "list", item_type = "concept", item_concept_ref = "Skill", description = "Skills" }
rates = { type = "dict", key_type = "text", value_type = "number", description = "Rates" }
best = { type = "concept", concept_ref = "hr.Skill", description = "Best skill" }
motto = "A motto"
[concept.Memo]
description = "A memo"
refines = "Text"
[concept.Remark]
description = "A remark, no structure"
`;

describe('Library.contentSchema', () => {
  describe('when the concept is Text', () => {
    it('should be a {text} object', () => {
      const lib = library('domain = "d"');
      expect(lib.contentSchema(lib.resolveConcept('Text'))).to.deep.equal({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
        description: 'A text',
      });
    });
  });

  describe('when the concept is another native', () => {
    const lib = library('domain = "d"');
    const cases: [string, unknown, unknown][] = [
      ['Number', { number: 3.5 }, { number: '3' }],
      ['Image', { url: 'https://x/y.png', caption: null }, { caption: 'no url' }],
      ['Document', { url: 'https://x/y.pdf', mime_type: 'application/pdf' }, { title: 'no url' }],
      [
        'Page',
        { text_and_images: { text: { text: 'p1' }, images: [] }, page_view: null },
        { text_and_images: { text: 'p1' } },
      ],
      ['JSON', { json_obj: { a: 1 } }, { json_obj: [1] }],
      ['SearchResult', { answer: 'a', sources: [{ url: 'https://x' }] }, { answer: 'a', sources: [{ title: 't' }] }],
      ['Html', { inner_html: '<p/>', css_class: 'c' }, { css_class: 'c' }],
    ];
    for (const [code, good, bad] of cases) {
      it(`should compile for ${code}, accept a good content and refuse a bad one`, () => {
        const validate = validator(lib.contentSchema(lib.resolveConcept(code)));
        expect([validate(good), validate(bad)]).to.deep.equal([true, false]);
      });
    }
  });

  describe('when the concept is MatchAnalysis (cv_job_match)', () => {
    const lib = library(sample('cv_job_match'));
    const schema = lib.contentSchema(lib.resolveConcept('MatchAnalysis'));

    it('should map the fields, all required', () => {
      expect(schema).to.deep.equal({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        title: 'MatchAnalysis',
        description: 'Structured assessment of how well a candidate CV matches a job offer.',
        properties: {
          is_match: { type: 'boolean', description: 'Whether the candidate is a good match for the job' },
          match_score: {
            type: 'integer',
            description: 'Score from 0 to 100 indicating how well the CV matches the job offer',
          },
          key_strengths: { type: 'string', description: 'Candidate strengths relevant to the job requirements' },
          gaps: { type: 'string', description: 'Notable gaps or missing qualifications' },
          recommendation: {
            type: 'string',
            description: 'Final recommendation: proceed to interview, reject, or further review',
          },
        },
        required: ['is_match', 'match_score', 'key_strengths', 'gaps', 'recommendation'],
        additionalProperties: false,
      });
    });

    it('should accept a good object and refuse a bad one with ajv 2020', () => {
      const validate = validator(schema);
      const good = {
        is_match: true,
        match_score: 72,
        key_strengths: 'TypeScript',
        gaps: 'None',
        recommendation: 'proceed to interview',
      };
      expect(validate(good)).to.equal(true);
      expect(validate({ ...good, match_score: 72.5 })).to.equal(false);
      expect(validate({ is_match: true, match_score: 72 })).to.equal(false);
      expect(validate({ ...good, extra: 1 })).to.equal(false);
    });
  });

  describe('when the structure uses every field type', () => {
    const lib = library(ALL_TYPES);
    const schema = lib.contentSchema(lib.resolveConcept('Candidate'));

    it('should map types, optional fields as nullable, choices as enum and nested concepts under $defs', () => {
      const properties = schema['properties'] as Record<string, Record<string, unknown>>;
      expect(schema['required']).to.deep.equal(['name', 'seniority']);
      expect(properties['seniority']).to.deep.equal({
        type: 'string',
        enum: ['junior', 'senior'],
        description: 'Level',
      });
      expect(properties['age']).to.deep.equal({
        anyOf: [{ type: 'integer', description: 'Age' }, { type: 'null' }],
        description: 'Age',
        default: null,
      });
      expect(properties['score']).to.deep.equal({
        anyOf: [{ type: 'number', description: 'Score', default: 0.5 }, { type: 'null' }],
        description: 'Score',
        default: 0.5,
      });
      expect(properties['skills']).to.deep.equal({
        anyOf: [{ type: 'array', items: { $ref: '#/$defs/hr__Skill' }, description: 'Skills' }, { type: 'null' }],
        description: 'Skills',
        default: null,
      });
      expect(properties['motto']).to.deep.equal({
        anyOf: [{ type: 'string', description: 'A motto' }, { type: 'null' }],
        description: 'A motto',
        default: null,
      });
      expect(Object.keys(schema['$defs'] as object)).to.deep.equal(['hr__Skill']);
    });

    it('should accept a full content and refuse wrong types', () => {
      const validate = validator(schema);
      const good = {
        name: 'Ada',
        age: 36,
        score: 0.9,
        hired: true,
        born: '1815-12-10',
        seniority: 'senior',
        tags: ['math'],
        skills: [{ name: 'analysis' }],
        rates: { day: 900 },
        best: { name: 'analysis' },
        motto: null,
      };
      expect(validate(good)).to.equal(true);
      expect(validate({ name: 'Ada', seniority: 'junior' })).to.equal(true);
      expect(validate({ ...good, seniority: 'lead' })).to.equal(false);
      expect(validate({ ...good, skills: [{ label: 'x' }] })).to.equal(false);
      expect(validate({ ...good, rates: { day: 'high' } })).to.equal(false);
    });
  });

  describe('when the concept refines Text or is description-only', () => {
    it('should take the Text shape with the concept own description', () => {
      const lib = library(ALL_TYPES);
      expect(lib.contentSchema(lib.resolveConcept('Memo'))).to.deep.equal({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
        description: 'A memo',
      });
      expect(lib.contentSchema(lib.resolveConcept('Remark'))['required']).to.deep.equal(['text']);
    });
  });
});
