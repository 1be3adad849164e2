/**
 * PipeCompose through the runtime API (docs/runtime.md#pipecompose, docs/pipes.md#pipecompose): template mode (Text and
 * Html outputs) and
 * construct mode (memory paths, templates, literals, nested fields, `list_to_dict_keyed_by`, output validation).
 */
import { expect } from 'chai';
import { PipeOutputValidationError } from '../../../../shared/errors/index.js';
import { libraryOf } from '../../../helpers/library.js';
import { memoryView, runFailure, runPipe, text } from '../../../helpers/runtime-run.js';

const BUNDLE = `
domain = "cons"

[concept.Address]
description = "An address"
[concept.Address.structure]
city = { type = "text", description = "City", required = true }
label = { type = "text", description = "Label", required = true }

[concept.Card]
description = "A card"
[concept.Card.structure]
name = { type = "text", description = "Name", required = true }
age = { type = "integer", description = "Age", required = true }
kind = { type = "text", description = "Kind", required = true }
address = { type = "concept", concept_ref = "Address", description = "Address", required = true }
tags = { type = "list", item_type = "text", description = "Tags", required = true }

[pipe.card]
type = "PipeCompose"
description = "construct"
inputs = { name = "Text", age = "Number", city = "Text", tags = "Text[]" }
output = "Card"

[pipe.card.construct]
name = { from = "name" }
age = { from = "age.number" }
kind = "person"
tags = ["a", "b"]

[pipe.card.construct.address]
city = { from = "city" }
label = { template = "{{ name }} in {{ city }}" }

[pipe.card_bad]
type = "PipeCompose"
description = "construct with a wrong type"
inputs = { name = "Text" }
output = "Address"

[pipe.card_bad.construct]
city = { from = "name" }
label = 3

[concept.Person]
description = "A person"
[concept.Person.structure]
name = { type = "text", description = "Name", required = true }
role = { type = "text", description = "Role", required = true }

[pipe.roster]
type = "PipeCompose"
description = "a list keyed by an attribute"
inputs = { people = "Person[]" }
output = "Anything"

[pipe.roster.construct]
by_name = { from = "people", list_to_dict_keyed_by = "name" }
count_label = { template = "{{ people|length }} people" }

[pipe.greet]
type = "PipeCompose"
description = "template to Text"
inputs = { name = "Text" }
output = "Text"
template = "Hello {{ name }} ({{ name|upper }})"

[pipe.greet_html]
type = "PipeCompose"
description = "template to Html"
inputs = { name = "Text" }
output = "Html"
template = "<b>{{ name }}</b>"
`;

describe('PipeCompose', () => {
  const library = libraryOf(BUNDLE);

  describe('template mode', () => {
    it('should render the template over the working memory into a Text output', async () => {
      const outcome = await runPipe(library, 'greet', { name: 'Ada' });
      expect(memoryView(outcome.memory)).to.deep.equal({
        main: 'main_stuff',
        aliases: {},
        root: {
          name: { name: 'name', concept: 'native.Text', content: text('Ada'), code: 's1' },
          main_stuff: { name: 'text', concept: 'native.Text', content: text('Hello Ada (ADA)'), code: 's2' },
        },
      });
    });

    it('should give an Html output its rendered text as inner_html with an empty css_class', async () => {
      const outcome = await runPipe(library, 'greet_html', { name: 'Ada' });
      expect(memoryView(outcome.memory).root['main_stuff']).to.deep.equal({
        name: 'html',
        concept: 'native.Html',
        content: { inner_html: '<b>Ada</b>', css_class: '' },
        code: 's2',
      });
    });

    it('should store the output under the output name given', async () => {
      const view = memoryView((await runPipe(library, 'greet', { name: 'Ada' }, { outputName: 'hello' })).memory);
      expect(view.main).to.equal('hello');
      expect(view.aliases).to.deep.equal({ main_stuff: 'hello' });
      expect(view.root['hello']).to.deep.equal({
        name: 'hello',
        concept: 'native.Text',
        content: text('Hello Ada (ADA)'),
        code: 's2',
      });
    });
  });

  describe('construct mode', () => {
    it('should build nested fields from memory paths, templates and literals', async () => {
      const inputs = { name: 'Ada', age: { concept: 'Number', content: { number: 36 } }, city: 'London', tags: ['x'] };
      const outcome = await runPipe(library, 'card', inputs);
      const view = memoryView(outcome.memory);
      expect(Object.keys(view.root)).to.deep.equal(['name', 'age', 'city', 'tags', 'main_stuff']);
      expect(view.root['main_stuff']).to.deep.equal({
        name: 'card',
        concept: 'cons.Card',
        content: {
          name: 'Ada',
          age: 36,
          kind: 'person',
          tags: ['a', 'b'],
          address: { city: 'London', label: 'Ada in London' },
        },
        code: 's5',
      });
    });

    it('should key a list by an attribute with list_to_dict_keyed_by', async () => {
      const people = [
        { name: 'ada', role: 'eng' },
        { name: 'bob', role: 'ops' },
      ];
      const outcome = await runPipe(library, 'roster', { people: { concept: 'cons.Person', content: people } });
      expect(memoryView(outcome.memory).root['main_stuff']).to.deep.equal({
        name: 'anything',
        concept: 'native.Anything',
        content: { by_name: { ada: people[0], bob: people[1] }, count_label: '2 people' },
        code: 's2',
      });
    });

    it('should refuse a constructed value that does not match the output concept', async () => {
      const error = await runFailure(runPipe(library, 'card_bad', { name: 'Ada' }));
      expect(error).to.be.instanceOf(PipeOutputValidationError);
      expect(error.message).to.equal(
        "PipeCompose 'card_bad': the constructed output does not match concept cons.Address: /label must be string.",
      );
    });
  });
});
