import { expect } from 'chai';
import type { Library } from '../../../shared/mthds/index.js';
import { inputContractSchema, outputContractSchema, propertyTitle } from '../../../shared/wire/contract-schema.js';
import { inputForms, outputForms } from '../../../shared/wire/form-descriptors.js';
import { libraryOf } from '../../helpers/library.js';
import { OPTIONAL_BUNDLE } from '../../helpers/optional-bundle.js';

const CREW = `
domain      = "crew"
description = "A crew and its ship"

[concept.Callsign]
description = "A radio callsign"
refines     = "Text"

[concept.Ship]
description = "A ship"

[concept.Ship.structure]
hull_code = { type = "text", description = "Hull code", required = true }

[concept.Sailor]
description = "A sailor aboard"

[concept.Sailor.structure]
full_name = { type = "text", description = "Full name", required = true }
born_in   = { type = "integer", description = "Year of birth", required = true }
height_m  = { type = "number", description = "Height in metres" }
on_watch  = { type = "boolean", description = "Whether on watch", required = true }
joined_on = { type = "date", description = "Day they joined" }
rank      = { type = "text", description = "Rank", required = true, choices = ["mate", "bosun"] }
nickname  = { type = "text", description = "What the crew calls them", default_value = "sailor" }
ship      = { type = "concept", concept_ref = "crew.Ship", description = "Their ship", required = true }
past_ships = { type = "list", item_type = "concept", item_concept_ref = "crew.Ship", description = "Ships served on" }
knots     = { type = "list", description = "Knots they can tie" }
logbook   = { type = "dict", key_type = "text", value_type = "integer", description = "Entries per port" }

[concept.Captain]
description = "The sailor in command"
refines     = "Sailor"

[pipe.muster]
type = "PipeLLM"
description = "Muster the crew"
inputs = { sailors = "Sailor[]", callsign = "Callsign", lookouts = "Sailor[2]" }
output = "Callsign[]"
prompt = "Muster @sailors under @callsign with @lookouts"

[pipe.appoint]
type = "PipeLLM"
description = "Appoint a captain"
inputs = { sailor = "Sailor" }
output = "Captain"
prompt = "Appoint @sailor"
`;

const NATIVES = `
domain      = "natives_seen"
description = "Natives as forms see them"

[concept.Portrait]
description = "A portrait photograph"
refines     = "Image"

[concept.Contract]
description = "A signed contract"
refines     = "Document"

[pipe.read_all]
type = "PipeLLM"
description = "Read one of each native"
inputs = { page = "Page", pages = "Page[]", found = "SearchResult", blob = "JSON", whatever = "Anything", count = "Number", portrait = "Portrait", contract = "Contract", body = "Text" }
output = "Text"
prompt = "Read @page @pages @found @blob @whatever @count @portrait @contract @body"
`;

const PAGE_FORM = {
  kind: 'object',
  concept_ref: 'native.Page',
  description: 'A page of a document: its text and images, and a view of the page',
  required: true,
  fields: [
    {
      kind: 'object',
      name: 'text_and_images',
      concept_ref: 'native.TextAndImages',
      description: 'The text and images content extracted from the page',
      required: true,
      fields: [
        { kind: 'prose', name: 'text', concept_ref: 'native.Text', description: 'A text content', required: false },
        {
          kind: 'list',
          name: 'images',
          concept_ref: 'native.Image',
          description: 'A list of images that were extracted from the text',
          required: false,
          item: { kind: 'image', concept_ref: 'native.Image', description: 'An image', required: true },
        },
        {
          kind: 'text',
          name: 'raw_html',
          description: 'The raw HTML of the fetched page, if requested',
          required: false,
        },
      ],
    },
    {
      kind: 'image',
      name: 'page_view',
      concept_ref: 'native.Image',
      description: 'The screenshot of the page',
      required: false,
    },
  ],
};

const SHIP_DEF = {
  description: 'A ship',
  properties: { hull_code: { type: 'string', description: 'Hull code', title: 'Hull Code' } },
  required: ['hull_code'],
  title: 'crew__Ship',
  type: 'object',
};

const SAILOR_SCHEMA = {
  description: 'A sailor aboard',
  properties: {
    full_name: { type: 'string', description: 'Full name', title: 'Full Name' },
    born_in: { type: 'integer', description: 'Year of birth', title: 'Born In' },
    height_m: {
      anyOf: [{ type: 'number' }, { type: 'null' }],
      default: null,
      description: 'Height in metres',
      title: 'Height M',
    },
    on_watch: { type: 'boolean', description: 'Whether on watch', title: 'On Watch' },
    joined_on: {
      anyOf: [{ format: 'date', type: 'string' }, { type: 'null' }],
      default: null,
      description: 'Day they joined',
      title: 'Joined On',
    },
    rank: { enum: ['mate', 'bosun'], type: 'string', description: 'Rank', title: 'Rank' },
    nickname: {
      anyOf: [{ type: 'string' }, { type: 'null' }],
      default: 'sailor',
      description: 'What the crew calls them',
      title: 'Nickname',
    },
    ship: { $ref: '#/$defs/crew__Ship', description: 'Their ship' },
    past_ships: {
      anyOf: [{ items: { $ref: '#/$defs/crew__Ship' }, type: 'array' }, { type: 'null' }],
      default: null,
      description: 'Ships served on',
      title: 'Past Ships',
    },
    knots: {
      anyOf: [{ items: { type: 'string' }, type: 'array' }, { type: 'null' }],
      default: null,
      description: 'Knots they can tie',
      title: 'Knots',
    },
    logbook: {
      anyOf: [{ additionalProperties: { type: 'integer' }, type: 'object' }, { type: 'null' }],
      default: null,
      description: 'Entries per port',
      title: 'Logbook',
    },
  },
  required: ['full_name', 'born_in', 'on_watch', 'rank', 'ship'],
  title: 'crew.Sailor',
  type: 'object',
};

function concept(library: Library, ref: string) {
  return library.resolveConcept(ref);
}

describe('form descriptors and I/O contract schemas (reference shapes)', () => {
  const crew = libraryOf(CREW);
  const natives = libraryOf(NATIVES);

  describe('propertyTitle', () => {
    it('should title a field name as pydantic does', () => {
      expect(['birth_year', 'public_url', 'vat2rate', 'myURL', '_private'].map(propertyTitle)).to.deep.equal([
        'Birth Year',
        'Public Url',
        'Vat2Rate',
        'Myurl',
        'Private',
      ]);
    });
  });

  describe('json_schema', () => {
    it('should write a structured concept titled with its ref, optional fields nullable, $defs <domain>__<Code>', () => {
      expect(inputContractSchema(crew, concept(crew, 'crew.Sailor'), 'single')).to.deep.equal({
        $defs: { crew__Ship: SHIP_DEF },
        ...SAILOR_SCHEMA,
      });
    });

    it('should write a text concept as the text content, titled with its ref', () => {
      const text = {
        description: 'A radio callsign',
        properties: { text: { type: 'string', description: 'The text', title: 'Text' } },
        required: ['text'],
        title: 'crew.Callsign',
        type: 'object',
      };
      expect(inputContractSchema(crew, concept(crew, 'crew.Callsign'), 'single')).to.deep.equal(text);
      expect(inputContractSchema(crew, concept(crew, 'native.Text'), 'single')).to.deep.include({
        title: 'native.Text',
        description: 'A text',
      });
    });

    it('should write a list input as an array of items, bounded for a fixed count', () => {
      const item = inputContractSchema(crew, concept(crew, 'crew.Sailor'), 'single');
      const { $defs, ...body } = item;
      expect(inputContractSchema(crew, concept(crew, 'crew.Sailor'), 'variable')).to.deep.equal({
        $defs,
        items: body,
        type: 'array',
      });
      expect(inputContractSchema(crew, concept(crew, 'crew.Sailor'), 2)).to.deep.equal({
        $defs,
        items: body,
        maxItems: 2,
        minItems: 2,
        type: 'array',
      });
    });

    it('should write a list output as the list content object, for a variable or a fixed count', () => {
      const listContent = {
        $defs: {
          crew__Callsign: {
            description: 'A radio callsign',
            properties: { text: { type: 'string', description: 'The text', title: 'Text' } },
            required: ['text'],
            title: 'crew__Callsign',
            type: 'object',
          },
        },
        properties: { items: { items: { $ref: '#/$defs/crew__Callsign' }, title: 'Items', type: 'array' } },
        required: ['items'],
        title: 'ListContent[crew__Callsign]',
        type: 'object',
      };
      expect(outputContractSchema(crew, concept(crew, 'crew.Callsign'), 'variable')).to.deep.equal(listContent);
      expect(outputContractSchema(crew, concept(crew, 'crew.Callsign'), 3)).to.deep.equal(listContent);
    });

    it('should give a refining concept its parent’s fields under its own title', () => {
      const captain = outputContractSchema(crew, concept(crew, 'crew.Captain'), 'single');
      expect(captain).to.deep.equal({
        $defs: { crew__Ship: SHIP_DEF },
        ...SAILOR_SCHEMA,
        description: 'The sailor in command',
        title: 'crew.Captain',
      });
    });

    it('should describe structured natives with their fields, nested natives under their content class', () => {
      const page = inputContractSchema(natives, concept(natives, 'native.Page'), 'single');
      expect(Object.keys(page['$defs'] as object).sort()).to.deep.equal([
        'ImageContent',
        'TextAndImagesContent',
        'TextContent',
      ]);
      expect(page).to.deep.include({ title: 'native.Page', required: ['text_and_images'], type: 'object' });
      expect(page['properties']).to.deep.equal({
        text_and_images: {
          $ref: '#/$defs/TextAndImagesContent',
          description: 'The text and images content extracted from the page',
        },
        page_view: {
          anyOf: [{ $ref: '#/$defs/ImageContent' }, { type: 'null' }],
          default: null,
          description: 'The screenshot of the page',
        },
      });
      expect(inputContractSchema(natives, concept(natives, 'native.JSON'), 'single')).to.deep.equal({
        description: 'A JSON object',
        properties: {
          json_obj: { additionalProperties: true, type: 'object', description: 'The JSON object', title: 'Json Obj' },
        },
        required: ['json_obj'],
        title: 'native.JSON',
        type: 'object',
      });
      expect(inputContractSchema(natives, concept(natives, 'native.Anything'), 'single')).to.deep.equal({
        description: 'Any concept',
        properties: {},
        title: 'native.Anything',
        type: 'object',
      });
      const portrait = inputContractSchema(natives, concept(natives, 'natives_seen.Portrait'), 'single');
      expect(portrait).to.deep.include({ title: 'natives_seen.Portrait', required: ['url'] });
    });
  });

  describe('input_form', () => {
    it('should describe every field kind of a structured concept, in declaration order', () => {
      const [sailors, callsign, lookouts] = inputForms(crew)['crew.muster']!.fields;
      expect(sailors).to.deep.include({
        kind: 'list',
        name: 'sailors',
        concept_ref: 'crew.Sailor',
        description: 'A sailor aboard',
        required: true,
        presence: 'plain',
        gating: false,
      });
      expect(Object.keys(sailors!)).to.deep.equal([
        'kind',
        'name',
        'concept_ref',
        'description',
        'required',
        'presence',
        'gating',
        'item',
      ]);
      expect(sailors!.item).to.deep.equal({
        kind: 'object',
        concept_ref: 'crew.Sailor',
        description: 'A sailor aboard',
        required: true,
        fields: [
          { kind: 'text', name: 'full_name', description: 'Full name', required: true },
          { kind: 'number', name: 'born_in', description: 'Year of birth', required: true, integer: true },
          { kind: 'number', name: 'height_m', description: 'Height in metres', required: false, integer: false },
          { kind: 'boolean', name: 'on_watch', description: 'Whether on watch', required: true },
          { kind: 'date', name: 'joined_on', description: 'Day they joined', required: false, datetime: false },
          { kind: 'enum', name: 'rank', description: 'Rank', required: true, choices: ['mate', 'bosun'] },
          {
            kind: 'text',
            name: 'nickname',
            description: 'What the crew calls them',
            required: false,
            default_value: 'sailor',
          },
          {
            kind: 'object',
            name: 'ship',
            concept_ref: 'crew.Ship',
            description: 'Their ship',
            required: true,
            fields: [{ kind: 'text', name: 'hull_code', description: 'Hull code', required: true }],
          },
          {
            kind: 'list',
            name: 'past_ships',
            concept_ref: 'crew.Ship',
            description: 'Ships served on',
            required: false,
            item: {
              kind: 'object',
              concept_ref: 'crew.Ship',
              description: 'A ship',
              required: true,
              fields: [{ kind: 'text', name: 'hull_code', description: 'Hull code', required: true }],
            },
          },
          {
            kind: 'list',
            name: 'knots',
            description: 'Knots they can tie',
            required: false,
            item: { kind: 'text', required: true },
          },
          { kind: 'object', name: 'logbook', description: 'Entries per port', required: false, fields: [] },
        ],
      });
      expect(callsign).to.deep.equal({
        kind: 'prose',
        name: 'callsign',
        concept_ref: 'crew.Callsign',
        refines: ['native.Text'],
        description: 'A radio callsign',
        required: true,
        presence: 'plain',
        gating: true,
      });
      expect(lookouts).to.deep.include({ kind: 'list', gating: true, item_count: 2 });
    });

    it('should describe structured natives as objects with fields, file natives as document or image', () => {
      const fields = inputForms(natives)['natives_seen.read_all']!.fields;
      const byName = new Map(fields.map((field) => [field.name, field]));
      expect(byName.get('page')).to.deep.equal({
        ...PAGE_FORM,
        name: 'page',
        presence: 'plain',
        gating: true,
      });
      expect(byName.get('pages')!.item).to.deep.equal(PAGE_FORM);
      expect(byName.get('found')).to.deep.include({ kind: 'object', concept_ref: 'native.SearchResult' });
      expect(byName.get('found')!.fields!.map((field) => [field.name, field.kind])).to.deep.equal([
        ['answer', 'text'],
        ['sources', 'list'],
      ]);
      expect(byName.get('blob')!.fields).to.deep.equal([
        { kind: 'object', name: 'json_obj', description: 'The JSON object', required: true, fields: [] },
      ]);
      expect(byName.get('whatever')).to.deep.include({ kind: 'object', fields: [] });
      expect(byName.get('count')).to.deep.include({ kind: 'number', integer: false });
      expect(byName.get('portrait')).to.deep.include({ kind: 'image', refines: ['native.Image'] });
      expect(byName.get('contract')).to.deep.include({ kind: 'document', refines: ['native.Document'] });
      expect(byName.get('body')).to.deep.equal({
        kind: 'prose',
        name: 'body',
        concept_ref: 'native.Text',
        description: 'A text',
        required: true,
        presence: 'plain',
        gating: true,
      });
      expect(fields.filter((field) => field.kind === 'unknown')).to.deep.equal([]);
    });
  });

  describe('input_form of optional and force-marked inputs (docs/language.md#optionality-presence-markers-and-absences)', () => {
    const brief = libraryOf(OPTIONAL_BUNDLE);
    const prose = (name: string) => ({
      kind: 'prose',
      name,
      concept_ref: 'native.Text',
      description: 'A text',
    });

    it('should make an optional input not required and not gating, a plain one required and gating', () => {
      const fields = inputForms(brief)['brief.brief_flow']!.fields;
      expect(fields).to.deep.equal([
        { ...prose('topic'), required: true, presence: 'plain', gating: true },
        { ...prose('hint'), required: false, presence: 'optional', gating: false },
      ]);
      expect(Object.keys(fields[1]!)).to.deep.equal([
        'kind',
        'name',
        'concept_ref',
        'description',
        'required',
        'presence',
        'gating',
      ]);
    });

    it('should keep a force-marked input required and gating, as a plain one', () => {
      expect(inputForms(brief)['brief.insist']!.fields).to.deep.equal([
        { ...prose('hint'), required: true, presence: 'force', gating: true },
      ]);
    });
  });

  describe('the verdict natives', () => {
    it('should describe YesNo, Choice and Rating as objects with their fields, the first required', () => {
      const verdicts = libraryOf(`
domain = "verdicts"
[pipe.read_verdicts]
type = "PipeLLM"
description = "Read verdicts"
inputs = { urgent = "YesNo", team = "Choice", severity = "Rating" }
output = "Text"
prompt = "Read $urgent $team $severity"
`);
      const fields = inputForms(verdicts)['verdicts.read_verdicts']!.fields;
      const shape = (field: (typeof fields)[number]) => [
        field.kind,
        field.concept_ref,
        field.fields!.map((member) => [member.name, member.kind, member.required]),
      ];
      expect(fields.map(shape)).to.deep.equal([
        [
          'object',
          'native.YesNo',
          [
            ['yes_no', 'boolean', true],
            ['probability', 'number', false],
          ],
        ],
        [
          'object',
          'native.Choice',
          [
            ['choice', 'text', true],
            ['confidence', 'number', false],
            ['probabilities', 'object', false],
          ],
        ],
        [
          'object',
          'native.Rating',
          [
            ['level', 'number', true],
            ['label', 'text', false],
            ['confidence', 'number', false],
            ['probabilities', 'object', false],
            ['position', 'number', false],
          ],
        ],
      ]);
    });
  });

  describe('output_form', () => {
    it('should describe a plural output as a list node with its concept, and a refinement with refines', () => {
      const forms = outputForms(crew);
      expect(forms['crew.muster']!.field).to.deep.equal({
        kind: 'list',
        name: 'output',
        concept_ref: 'crew.Callsign',
        refines: ['native.Text'],
        description: 'A radio callsign',
        required: true,
        item: {
          kind: 'prose',
          concept_ref: 'crew.Callsign',
          refines: ['native.Text'],
          description: 'A radio callsign',
          required: true,
        },
      });
      expect(forms['crew.appoint']!.field).to.deep.include({
        kind: 'object',
        name: 'output',
        concept_ref: 'crew.Captain',
        refines: ['crew.Sailor'],
        description: 'The sailor in command',
      });
    });
  });
});
