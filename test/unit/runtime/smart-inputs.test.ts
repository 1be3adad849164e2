/**
 * Smart inputs (docs/data-flow.md#caller-inputs): bare caller values interpreted against the entry pipe's declared
 * concepts,
 * without the `{concept, content}` envelope — here the scalars: a number for an input declared `Number` (or a
 * refinement), a boolean for `YesNo`, and lists of them. Anything else keeps its 422.
 */
import { expect } from 'chai';
import { StuffFactoryError } from '../../../shared/errors/index.js';
import { libraryOf } from '../../helpers/library.js';
import { memoryView, runFailure, runPipe } from '../../helpers/runtime-run.js';

const BUNDLE = `
domain = "shop"

[concept.Price]
description = "A price in euros"
refines = "Number"

[pipe.quote]
type = "PipeCompose"
description = "Quotes a price"
inputs = { price = "Price", quantity = "Number", gift = "YesNo", weights = "Number[]", note = "Text" }
output = "Text"
template = "{{ quantity.number }} at {{ price.number }}{% if gift.yes_no %}, wrapped{% endif %} ({{ weights | length }} parcels) {{ note.text }}"
`;

describe('smart inputs: bare scalars', () => {
  const library = libraryOf(BUNDLE);
  const inputs = { price: 9.5, quantity: 2, gift: true, weights: [1, 2.5], note: 'thanks' };

  it('should read a number as Number content (a refinement keeps its concept) and a boolean as YesNo content', async () => {
    const outcome = await runPipe(library, 'quote', inputs);
    const view = memoryView(outcome.memory);
    expect(view.root['price']).to.include({ concept: 'shop.Price' });
    expect(view.root['price']?.content).to.deep.equal({ number: 9.5 });
    expect(view.root['quantity']?.content).to.deep.equal({ number: 2 });
    expect(view.root['gift']).to.deep.include({ concept: 'native.YesNo', content: { yes_no: true } });
    expect(view.root['weights']?.content).to.deep.equal({ items: [{ number: 1 }, { number: 2.5 }] });
    expect(outcome.memory.mainStuff()?.content).to.deep.equal({
      kind: 'item',
      item: { text: '2 at 9.5, wrapped (2 parcels) thanks' },
    });
  });

  it('should still refuse a scalar the declared concept does not take', async () => {
    const error = await runFailure(runPipe(library, 'quote', { ...inputs, gift: 1 }));
    expect(error).to.be.instanceOf(StuffFactoryError);
    expect(error.message).to.equal(
      'Input \'gift\': unsupported value (number); send a string, a list of strings, a content object or {"concept", "content"} (a bare number or boolean only for an input declared Number or YesNo).',
    );
  });
});
