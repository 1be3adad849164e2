/**
 * The content shape of a concept as the I/O contracts and form descriptors describe it (docs/forms.md), and the
 * natives' content: each native concept's
 * fields, written as concept fields with the descriptions the reference runner gives them (pipelex, as served to
 * `Pipelex/mthds-form`). The fields are those our content validator accepts (`shared/mthds/library/natives.ts`);
 * where our fields differ from the reference's (`native.Image` keeps `size` and `base_64` where the reference has
 * `width` and `height`), ours are described.
 */
import type { Concept, ConceptField, Library } from '../mthds/index.js';

/** The fields of a content, by name, in declaration order. */
export type Structure = Readonly<Record<string, ConceptField>>;

function text(description: string, required = false): ConceptField {
  return { type: 'text', description, required };
}

function number(description: string): ConceptField {
  return { type: 'number', description, required: false };
}

function probabilities(description: string): ConceptField {
  return { type: 'dict', key_type: 'text', value_type: 'number', description, required: false };
}

const TEXT: Structure = { text: text('The text', true) };

/** Fields of each native concept, keyed by code (`Text`, `Page`, …). A native absent here has no fields. */
const NATIVE_STRUCTURES: ReadonlyMap<string, Structure> = new Map<string, Structure>([
  ['Text', TEXT],
  ['Markdown', { text: text('The Markdown source', true) }],
  ['ImgGenPrompt', TEXT],
  ['Number', { number: { type: 'number', description: 'The number', required: true } }],
  [
    'Image',
    {
      url: text('The image URL: a storage URI, an HTTP(S) URL, or a base64 data URL', true),
      public_url: text('The public URL of the image'),
      source_prompt: text('The source prompt of the image'),
      source_negative_prompt: text('The source negative prompt of the image'),
      caption: text('The caption of the image'),
      mime_type: text('The MIME type of the image'),
      filename: text('The original filename of the image'),
      base_64: text('The image bytes, base64-encoded'),
      size: {
        type: 'dict',
        value_type: 'integer',
        description: 'The size of the image: its width and height, in pixels',
        required: false,
      },
    },
  ],
  [
    'Document',
    {
      url: text('The document URL: a storage URI, an HTTP(S) URL, or a base64 data URL', true),
      public_url: text('The public HTTPS URL of the document'),
      mime_type: text('The MIME type of the document'),
      filename: text('The original filename of the document'),
      title: text('The title of the document or source'),
      snippet: text('A text snippet or excerpt from the document'),
    },
  ],
  [
    'Html',
    { inner_html: text('The inner HTML', true), css_class: text('The CSS class of the element holding the HTML') },
  ],
  [
    'TextAndImages',
    {
      text: { type: 'concept', concept_ref: 'native.Text', description: 'A text content', required: false },
      images: {
        type: 'list',
        item_type: 'concept',
        item_concept_ref: 'native.Image',
        description: 'A list of images that were extracted from the text',
        required: false,
      },
      raw_html: text('The raw HTML of the fetched page, if requested'),
    },
  ],
  [
    'Page',
    {
      text_and_images: {
        type: 'concept',
        concept_ref: 'native.TextAndImages',
        description: 'The text and images content extracted from the page',
        required: true,
      },
      page_view: {
        type: 'concept',
        concept_ref: 'native.Image',
        description: 'The screenshot of the page',
        required: false,
      },
    },
  ],
  [
    'Date',
    {
      date: { type: 'date', description: 'The calendar date, YYYY-MM-DD', required: true },
      time: { type: 'time', description: 'The time of day, HH:MM:SS with an optional ±hh:mm offset', required: false },
    },
  ],
  [
    'Time',
    { time: { type: 'time', description: 'The time of day, HH:MM:SS with an optional ±hh:mm offset', required: true } },
  ],
  ['JSON', { json_obj: { type: 'dict', description: 'The JSON object', required: true } }],
  [
    'SearchResult',
    {
      answer: text('The answer found', true),
      sources: {
        type: 'list',
        item_type: 'concept',
        item_concept_ref: 'native.Document',
        description: 'The sources the answer was found in',
        required: true,
      },
    },
  ],
  [
    'YesNo',
    {
      yes_no: { type: 'boolean', description: 'The verdict: true for yes, false for no', required: true },
      probability: number('The probability that the answer is yes, between 0 and 1'),
    },
  ],
  [
    'Choice',
    {
      choice: text('The key of the option chosen', true),
      confidence: number('The confidence in the choice, between 0 and 1'),
      probabilities: probabilities('The probability of each option, by option key'),
    },
  ],
  [
    'Rating',
    {
      level: { type: 'integer', description: 'The level on the scale: its index, from 0 (lowest)', required: true },
      label: text('The label of the level, when the scale has labels'),
      confidence: number('The confidence in the level, between 0 and 1'),
      probabilities: probabilities('The probability of each level, by index written as a string'),
      position: number('The position on the scale (0 = lowest level), between levels when uncertain'),
    },
  ],
]);

/**
 * A concept and the concepts it refines, nearest first (stops before a loop or an unresolved parent).
 * @param library - the library the concept belongs to
 * @param concept - any concept of the library
 */
export function conceptAncestry(library: Library, concept: Concept): Concept[] {
  const chain: Concept[] = [];
  for (
    let current: Concept | undefined = concept;
    current && !chain.includes(current);
    current = current.refines === null ? undefined : library.concepts.get(current.refines)
  ) {
    chain.push(current);
  }
  return chain;
}

/**
 * The concept whose fields a concept's content has, and those fields: the nearest of the concept and its ancestors
 * that is native or declares a structure; a concept with neither (description-only) has `native.Text`'s shape
 * (docs/concepts.md#structure-fields).
 * @param library - the library the concept belongs to
 * @param concept - any concept of the library
 * @returns the shaping concept (a native or a structured concept) and its fields
 */
export function contentShape(library: Library, concept: Concept): { shape: Concept; fields: Structure } {
  const shape =
    conceptAncestry(library, concept).find((ancestor) => ancestor.isNative || ancestor.structure !== null) ??
    library.resolveConcept('native.Text');
  return { shape, fields: shape.isNative ? (NATIVE_STRUCTURES.get(shape.code) ?? {}) : (shape.structure ?? {}) };
}
