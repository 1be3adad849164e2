import { expect } from 'chai';
import { unguardedOptionalReads } from '../../../shared/templating/optional-guards.js';

const OPTIONAL = new Set(['note', 'hint']);
const reads = (template: string): string[] => unguardedOptionalReads(template, OPTIONAL);

describe('unguardedOptionalReads', () => {
  describe('when every read of an optional name is guarded', () => {
    for (const template of [
      'Brief: @?note',
      'Brief: @?note.text',
      '{% if note %}$note and @note and {{ note.text | upper }}{% endif %}',
      '{% if note is defined %}{{ note }}{% endif %}',
      '{% if ready and note %}{{ note.text }}{% endif %}',
      '{% if note and note.text %}{{ note.text }}{% endif %}',
      '{{ note.text if note else "none" }}',
      '{% if note is none %}nothing{% endif %}',
      '{% if not note %}nothing{% endif %}',
      '{% for note in items %}{{ note }}{% endfor %}',
      '{% set hint = "x" %}{{ hint }}',
      'Plain $topic',
    ])
      it(`should find nothing in ${JSON.stringify(template)}`, () => {
        expect(reads(template)).to.deep.equal([]);
      });
  });

  describe('when an optional name is read outside a guard', () => {
    for (const [template, expected] of [
      ['Brief: $note', ['note']],
      ['Brief: @note', ['note']],
      ['{{ note }}', ['note']],
      ['{{ note | default("") }}', ['note']],
      ['{% if note.text %}x{% endif %}', ['note']],
      ['{% if note %}ok{% else %}{{ note }}{% endif %}', ['note']],
      ['{{ "none" if note else note.text }}', ['note']],
      ['{% if note or hint %}{{ hint }}{% endif %}', ['hint']],
      ['{{ hint }}{% set hint = "x" %}', ['hint']],
      ['{% if note %}{% endif %}{{ note.text }} $hint', ['hint', 'note']],
    ] as const)
      it(`should name ${expected.join(', ')} in ${JSON.stringify(template)}`, () => {
        expect(reads(template)).to.deep.equal(expected);
      });
  });

  describe('when the pipe has no optional input', () => {
    it('should not read the template at all', () => {
      expect(unguardedOptionalReads('{{ broken', new Set())).to.deep.equal([]);
    });
  });
});
