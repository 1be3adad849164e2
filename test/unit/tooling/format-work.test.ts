import { expect } from 'chai';
import request from 'supertest';
import { parseTOML } from 'toml-eslint-parser';
import { formatWork, MAX_FORMAT_WORK } from '../../../shared/tooling/format-work.js';
import { buildTestApp } from '../../helpers/test-app.js';

/** An array of `count` numbers under the key `key`. */
const numbers = (key: string, count: number) => `${key} = [${Array.from({ length: count }, () => '1').join(',')}]`;

describe('formatWork and the /v1/format bound (docs/limits.md#formatting)', function () {
  // the route's first call loads taplo's 35 MB script
  this.timeout(60000);

  describe('formatWork', () => {
    it('should add the square of the items of every table, inline table and array, the top level included', () => {
      const text = [
        'domain = "x"',
        numbers('list', 3),
        'point = { x = 1, y = 2 }',
        '[concept.Note]',
        'description = "n"',
        'refines = "Text"',
        '',
      ].join('\n');
      // top level: 4 items (3 entries and the table); list: 3; point: 2; [concept.Note]: 2
      expect(formatWork(parseTOML(text))).to.deep.equal({ work: 16 + 9 + 4 + 4, largest: { items: 4, line: 1 } });
    });

    it('should count arrays nested in arrays and name the largest container with its line', () => {
      const text = `a = 1\nnested = [[1, 2], [${Array.from({ length: 10 }, () => '3').join(', ')}]]\n`;
      expect(formatWork(parseTOML(text))).to.deep.equal({
        work: 4 + 4 + 4 + 100,
        largest: { items: 10, line: 2 },
      });
    });
  });

  describe('POST /v1/format', () => {
    const app = buildTestApp();

    it('should format a text at the bound', async () => {
      // 706 items (498,436) and the top level's one: 498,437
      const content = `${numbers('list', 706)}\n`;
      expect(formatWork(parseTOML(content)).work).to.be.at.most(MAX_FORMAT_WORK);
      const response = await request(app).post('/v1/format').send({ content }).expect(200);
      expect(response.body).to.include({ changed: true });
    });

    it('should refuse a text past the bound with a 422 naming its work and its largest container', async () => {
      const content = `domain = "x"\n\n${numbers('list', 800)}\n`;
      const response = await request(app).post('/v1/format').send({ content }).expect(422);
      expect(response.headers['content-type']).to.equal('application/problem+json');
      expect(response.body).to.include({
        status: 422,
        error_type: 'ValidationError',
        detail:
          'body.content: this text is too costly to format: its formatting work (the sum, over every table, inline table and array, of the square of its items) is 640,004, over 500,000; the largest, opening at line 3, has 800 items. Split long arrays and tables into smaller ones, or the bundle into several files.',
      });
    });
  });
});
