import { expect } from 'chai';
import request from 'supertest';
import type { FormNode, PipeInputFormDescriptor } from '../../shared/wire/index.js';
import { formInputs } from '../helpers/form-values.js';
import { buildTestApp } from '../helpers/test-app.js';

const app = buildTestApp();

const BUNDLE = `
domain      = "form_trip"
description = "One pipe per native input"

[concept.Portrait]
description = "A portrait photograph"
refines     = "Image"

[pipe.read_text]
type = "PipeLLM"
description = "Read a text"
inputs = { subject = "Text" }
output = "Text"
prompt = "Read @subject"

[pipe.read_number]
type = "PipeLLM"
description = "Read a number"
inputs = { subject = "Number" }
output = "Text"
prompt = "Read @subject"

[pipe.read_image]
type = "PipeLLM"
description = "Read an image"
inputs = { subject = "Image" }
output = "Text"
prompt = "Read $subject"

[pipe.read_document]
type = "PipeLLM"
description = "Read a document"
inputs = { subject = "Document" }
output = "Text"
prompt = "Read $subject"

[pipe.read_html]
type = "PipeLLM"
description = "Read HTML"
inputs = { subject = "Html" }
output = "Text"
prompt = "Read @subject"

[pipe.read_text_and_images]
type = "PipeLLM"
description = "Read a text with images"
inputs = { subject = "TextAndImages" }
output = "Text"
prompt = "Read @subject"

[pipe.read_page]
type = "PipeLLM"
description = "Read a page"
inputs = { subject = "Page" }
output = "Text"
prompt = "Read @subject"

[pipe.read_pages]
type = "PipeLLM"
description = "Read pages"
inputs = { subject = "Page[]" }
output = "Text"
prompt = "Read @subject"

[pipe.read_json]
type = "PipeLLM"
description = "Read JSON"
inputs = { subject = "JSON" }
output = "Text"
prompt = "Read @subject"

[pipe.read_search_result]
type = "PipeLLM"
description = "Read a search result"
inputs = { subject = "SearchResult" }
output = "Text"
prompt = "Read @subject"

[pipe.read_img_gen_prompt]
type = "PipeLLM"
description = "Read an image prompt"
inputs = { subject = "ImgGenPrompt" }
output = "Text"
prompt = "Read @subject"

[pipe.read_dynamic]
type = "PipeLLM"
description = "Read anything chosen at run time"
inputs = { subject = "Dynamic" }
output = "Text"
prompt = "Read @subject"

[pipe.read_anything]
type = "PipeLLM"
description = "Read anything"
inputs = { subject = "Anything" }
output = "Text"
prompt = "Read @subject"

[pipe.read_portraits]
type = "PipeLLM"
description = "Read two portraits"
inputs = { subject = "Portrait[2]" }
output = "Text"
prompt = "Read $subject"

[pipe.read_documents]
type = "PipeLLM"
description = "Read documents"
inputs = { subject = "Document[]" }
output = "Text"
prompt = "Read $subject"
`;

const NATIVES = [
  'Text',
  'Number',
  'Image',
  'Document',
  'Html',
  'TextAndImages',
  'Page',
  'JSON',
  'SearchResult',
  'ImgGenPrompt',
  'Dynamic',
  'Anything',
];

function kinds(node: FormNode): string[] {
  return [node.kind, ...(node.fields ?? []).flatMap(kinds), ...(node.item ? kinds(node.item) : [])];
}

describe('form round trip: input_form → form values → POST /v1/execute', () => {
  let forms: Record<string, PipeInputFormDescriptor>;

  before(async () => {
    const response = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [BUNDLE], views: ['input_form'] })
      .expect(200);
    forms = response.body.input_form;
  });

  it('should give a pipe for every native, none of whose input nodes is unknown', () => {
    const concepts = Object.values(forms).flatMap((form) => form.fields.map((field) => field.concept_ref));
    for (const native of NATIVES) expect(concepts).to.include(`native.${native}`);
    const unknown = Object.entries(forms).filter(([, form]) => form.fields.flatMap(kinds).includes('unknown'));
    expect(unknown).to.deep.equal([]);
  });

  for (const pipe of [
    'read_text',
    'read_number',
    'read_image',
    'read_document',
    'read_html',
    'read_text_and_images',
    'read_page',
    'read_pages',
    'read_json',
    'read_search_result',
    'read_img_gen_prompt',
    'read_dynamic',
    'read_anything',
    'read_portraits',
    'read_documents',
  ]) {
    it(`should run ${pipe} to COMPLETED from the values its form collects`, async () => {
      const inputs = formInputs(forms[`form_trip.${pipe}`]!);
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [BUNDLE], pipe_code: pipe, inputs });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body.state).to.equal('COMPLETED');
    });
  }
});
