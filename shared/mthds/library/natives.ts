/**
 * The native concepts (domain `native`, always in scope) and the JSON schema of their content
 * (LANGUAGE.md §2.3, RUNTIME.md §7.2).
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
  /** The native it refines (qualified), when it has one: `Markdown` refines `Text` (LANGUAGE-DELTA.md §10). */
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

function withDefs(schema: Record<string, unknown>, defs: Record<string, unknown>): Record<string, unknown> {
  return { ...schema, $defs: defs };
}

/**
 * The natives, keyed by code: the 12 of the standard (LANGUAGE.md §2.3, `SearchResult` included), and `Markdown`
 * (LANGUAGE-DELTA.md §10, a newer reference native: `{text}`, refining Text; it prints as converted HTML in HTML
 * templates).
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
    ] as NativeConcept[]
  ).map((native) => [native.code, native]),
);
