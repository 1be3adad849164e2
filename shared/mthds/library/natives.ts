/**
 * The native concepts (domain `native`, always in scope) and the JSON schema of their content
 * (docs/concepts.md#native-concepts, docs/runtime.md#native-contents, docs/concepts.md#native-concepts: `Date`, `Time`
 * and `Composite`; `ImgGenPrompt`, retired
 * by the newer reference, is kept as the 0.16-era Text-shaped legacy native).
 */

/** The native domain code. */
export const NATIVE_DOMAIN = 'native';

/** One native concept. */
export interface NativeConcept {
  code: string;
  description: string;
  /** `structure_class_name` on the wire. */
  structureClassName: string;
  /** JSON schema of one content item (with `$defs` for nested natives). */
  schema: Record<string, unknown>;
  /**
   * The native it refines (qualified), when it has one: `Markdown` refines `Text` (docs/concepts.md#native-concepts).
   */
  refines?: string;
}

const TEXT = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
const IMAGE = {
  type: 'object',
  properties: {
    url: { type: 'string' },
    public_url: { type: ['string', 'null'] },
    source_prompt: { type: ['string', 'null'] },
    source_negative_prompt: { type: ['string', 'null'] },
    caption: { type: ['string', 'null'] },
    mime_type: { type: ['string', 'null'] },
    filename: { type: ['string', 'null'] },
    base_64: { type: ['string', 'null'] },
    size: {
      anyOf: [
        { type: 'object', properties: { width: { type: 'integer' }, height: { type: 'integer' } } },
        { type: 'null' },
      ],
    },
  },
  required: ['url'],
};
const DOCUMENT = {
  type: 'object',
  properties: {
    url: { type: 'string' },
    public_url: { type: ['string', 'null'] },
    mime_type: { type: ['string', 'null'] },
    filename: { type: ['string', 'null'] },
    title: { type: ['string', 'null'] },
    snippet: { type: ['string', 'null'] },
  },
  required: ['url'],
};
const TEXT_AND_IMAGES = {
  type: 'object',
  properties: {
    text: { anyOf: [{ $ref: '#/$defs/Text' }, { type: 'null' }] },
    images: { anyOf: [{ type: 'array', items: { $ref: '#/$defs/Image' } }, { type: 'null' }] },
    raw_html: { type: ['string', 'null'] },
  },
};

/**
 * A wall-clock time as the reference writes it: `HH:MM:SS`, optionally with a UTC offset `±hh:mm` (no fractions, no
 * `Z`). Hours 00–23, minutes and seconds 00–59.
 */
const TIME_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]([+-]([01][0-9]|2[0-3]):[0-5][0-9])?$';
const TIME_STRING = { type: 'string', pattern: TIME_PATTERN, examples: ['09:30:00'] };
const DATE = {
  type: 'object',
  properties: {
    date: { type: 'string', format: 'date', description: 'A calendar date, YYYY-MM-DD' },
    time: { anyOf: [{ ...TIME_STRING, description: 'The time of day, HH:MM:SS[±hh:mm]' }, { type: 'null' }] },
  },
  required: ['date'],
  additionalProperties: false,
};
const TIME = {
  type: 'object',
  properties: { time: { ...TIME_STRING, description: 'The time of day, HH:MM:SS[±hh:mm]' } },
  required: ['time'],
  additionalProperties: false,
};
/** An optional number between 0 and 1 (a probability or a confidence). */
const UNIT = { type: ['number', 'null'], minimum: 0, maximum: 1 };
/** An optional map of keys to numbers between 0 and 1. */
const UNIT_MAP = {
  type: ['object', 'null'],
  additionalProperties: { type: 'number', minimum: 0, maximum: 1 },
};

function withDefs(schema: Record<string, unknown>, defs: Record<string, unknown>): Record<string, unknown> {
  return { ...schema, $defs: defs };
}

/**
 * The natives, keyed by code: the 12 of the standard (docs/concepts.md#native-concepts, `SearchResult` and the legacy
 * `ImgGenPrompt`
 * included), the newer reference's `Markdown` (`{text}`, refining Text; it prints as converted HTML in HTML
 * templates), `Date`, `Time` and `Composite` (docs/concepts.md#native-concepts) and the verdict natives `YesNo`,
 * `Choice`,
 * `Rating` (docs/language.md#pipejudge: absent members are left out, never synthesised).
 */
export const NATIVE_CONCEPTS: ReadonlyMap<string, NativeConcept> = new Map(
  (
    [
      { code: 'Text', description: 'A text', structureClassName: 'TextContent', schema: TEXT },
      {
        code: 'Markdown',
        description: 'A text written in Markdown',
        structureClassName: 'MarkdownContent',
        schema: TEXT,
        refines: `${NATIVE_DOMAIN}.Text`,
      },
      {
        code: 'Number',
        description: 'A number',
        structureClassName: 'NumberContent',
        schema: { type: 'object', properties: { number: { type: 'number' } }, required: ['number'] },
      },
      { code: 'Image', description: 'An image', structureClassName: 'ImageContent', schema: IMAGE },
      { code: 'Document', description: 'A document', structureClassName: 'DocumentContent', schema: DOCUMENT },
      {
        code: 'Html',
        description: 'HTML content',
        structureClassName: 'HtmlContent',
        schema: {
          type: 'object',
          properties: { inner_html: { type: 'string' }, css_class: { type: 'string' } },
          required: ['inner_html'],
        },
      },
      {
        code: 'TextAndImages',
        description: 'A text with images',
        structureClassName: 'TextAndImagesContent',
        schema: withDefs(TEXT_AND_IMAGES, { Text: TEXT, Image: IMAGE }),
      },
      {
        code: 'Page',
        description: 'A page of a document: its text and images, and a view of the page',
        structureClassName: 'PageContent',
        schema: withDefs(
          {
            type: 'object',
            properties: {
              text_and_images: { $ref: '#/$defs/TextAndImages' },
              page_view: { anyOf: [{ $ref: '#/$defs/Image' }, { type: 'null' }] },
            },
            required: ['text_and_images'],
          },
          { TextAndImages: TEXT_AND_IMAGES, Text: TEXT, Image: IMAGE },
        ),
      },
      {
        code: 'JSON',
        description: 'A JSON object',
        structureClassName: 'JSONContent',
        schema: { type: 'object', properties: { json_obj: { type: 'object' } }, required: ['json_obj'] },
      },
      {
        code: 'SearchResult',
        description: 'An answer found on the web, with its sources',
        structureClassName: 'SearchResultContent',
        schema: withDefs(
          {
            type: 'object',
            properties: { answer: { type: 'string' }, sources: { type: 'array', items: { $ref: '#/$defs/Document' } } },
            required: ['answer', 'sources'],
          },
          { Document: DOCUMENT },
        ),
      },
      {
        code: 'YesNo',
        description: 'A yes/no verdict, with the probability of yes when known',
        structureClassName: 'YesNoContent',
        schema: {
          type: 'object',
          properties: { yes_no: { type: 'boolean' }, probability: UNIT },
          required: ['yes_no'],
        },
      },
      {
        code: 'Choice',
        description: 'The option chosen among declared options, with its confidence when known',
        structureClassName: 'ChoiceContent',
        schema: {
          type: 'object',
          properties: { choice: { type: 'string' }, confidence: UNIT, probabilities: UNIT_MAP },
          required: ['choice'],
        },
      },
      {
        code: 'Rating',
        description:
          'A level on a declared scale (index from 0, low to high), with its label when the scale has labels',
        structureClassName: 'RatingContent',
        schema: {
          type: 'object',
          properties: {
            level: { type: 'integer', minimum: 0 },
            label: { type: ['string', 'null'] },
            confidence: UNIT,
            probabilities: UNIT_MAP,
            position: { type: ['number', 'null'], minimum: 0 },
          },
          required: ['level'],
        },
      },
      {
        code: 'ImgGenPrompt',
        description: 'A prompt to generate an image',
        structureClassName: 'TextContent',
        schema: TEXT,
      },
      {
        code: 'Dynamic',
        description: 'A concept chosen at run time',
        structureClassName: 'DynamicContent',
        schema: { type: 'object' },
      },
      {
        code: 'Anything',
        description: 'Any concept',
        structureClassName: 'AnythingContent',
        schema: { type: 'object' },
      },
      {
        code: 'Date',
        description: 'A calendar date, with an optional time of day',
        structureClassName: 'DateContent',
        schema: DATE,
      },
      { code: 'Time', description: 'A time of day', structureClassName: 'TimeContent', schema: TIME },
      {
        code: 'Composite',
        description: 'The results of the branches of a PipeParallel, keyed by result name',
        structureClassName: 'CompositeContent',
        schema: { type: 'object' },
      },
    ] as NativeConcept[]
  ).map((native) => [native.code, native]),
);
