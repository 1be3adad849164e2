import { expect } from 'chai';
import request from 'supertest';
import { DOCUMENT_DATA_URL } from '../helpers/form-values.js';
import { buildTestApp } from '../helpers/test-app.js';

/** One bundle with every operator that calls a model, each naming a preset of the packaged (reference) deck. */
const BUNDLE = `domain = "mock_profile"

[concept.Headline]
description = "A headline"

[concept.Headline.structure]
title = { type = "text", description = "The title", required = true }
score = { type = "integer", description = "A score", required = true }

[pipe.find_news]
type = "PipeSearch"
description = "Search the web"
inputs = { topic = "Text" }
output = "SearchResult"
prompt = "Latest news about $topic"
model = "$linkup-deep"

[pipe.draw]
type = "PipeImgGen"
description = "Draw a picture"
inputs = { subject = "Text" }
output = "Image"
prompt = "A watercolor of $subject"
model = "$synthesize-photo"

[pipe.headline]
type = "PipeLLM"
description = "Write a headline"
inputs = { topic = "Text" }
output = "Headline"
prompt = "A headline about $topic"
model = "$testing-structured"

[pipe.read]
type = "PipeExtract"
description = "Read a document"
inputs = { doc = "Document" }
output = "Page[]"
model = "$extract_testing"
`;

/** The SVG placeholder the mock draws for a prompt (the first image of a call). */
const mockSvg = (prompt: string) =>
  `data:image/svg+xml;base64,${Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="288"><rect width="100%" height="100%" fill="#ddd"/><text x="16" y="144" font-size="14">mock image: ${prompt} #1</text></svg>`,
  ).toString('base64')}`;

describe('INFERENCE_PROFILE=mock', () => {
  const app = buildTestApp({ INFERENCE_PROFILE: 'mock' });
  const run = async (pipeCode: string, inputs: Record<string, unknown>) => {
    const response = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [BUNDLE], pipe_code: pipeCode, inputs });
    expect(response.status, JSON.stringify(response.body).slice(0, 600)).to.equal(200);
    expect(response.body.tokens_usages_backends).to.deep.equal(
      response.body.pipe_output.tokens_usages.length > 0 ? ['mock'] : [],
    );
    return response.body.pipe_output.working_memory.root.main_stuff;
  };

  it('should run a PipeSearch offline, answering the mock sourced answer', async () => {
    const stuff = await run('find_news', { topic: 'tides' });
    expect(stuff.concept.code).to.equal('SearchResult');
    expect(stuff.content).to.deep.equal({
      answer: '[mock search] Answer to: "Latest news about tides"',
      sources: [1, 2].map((index) => ({
        url: `https://example.com/mock-source-${index}`,
        title: `Mock source ${index}`,
        snippet: `Placeholder snippet ${index} for "Latest news about tides"`,
      })),
    });
  });

  it('should run a PipeImgGen offline, answering a labelled SVG placeholder', async () => {
    const stuff = await run('draw', { subject: 'a lighthouse' });
    expect(stuff.concept.code).to.equal('Image');
    expect(stuff.content).to.deep.equal({
      url: mockSvg('A watercolor of a lighthouse'),
      mime_type: 'image/svg+xml',
      source_prompt: 'A watercolor of a lighthouse',
      source_negative_prompt: null,
    });
  });

  it('should run a structured PipeLLM offline, the same object for the same prompt', async () => {
    const first = await run('headline', { topic: 'tides' });
    const second = await run('headline', { topic: 'tides' });
    expect(first.content).to.deep.equal(second.content);
    expect(Object.keys(first.content)).to.deep.equal(['title', 'score']);
    expect(first.content.title).to.be.a('string');
    expect(Number.isInteger(first.content.score)).to.equal(true);
  });

  it('should run a PipeExtract offline on an inline document', async () => {
    const stuff = await run('read', { doc: { concept: 'native.Document', content: { url: DOCUMENT_DATA_URL } } });
    expect(
      stuff.content.items.map(
        (page: { text_and_images: { text: { text: string } } }) => page.text_and_images.text.text,
      ),
    ).to.deep.equal(['Form value']);
  });
});
