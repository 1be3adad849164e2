/**
 * Bundle texts of the PipeDocGen rule suites: an `Invoice` with a nested `Customer` and a list of `Line`s, and one
 * PipeDocGen `print` with the fields given.
 */
import { bundle } from '../harness.js';

const CONCEPTS = [
  '[concept.Customer]',
  'description = "Who pays"',
  '[concept.Customer.structure]',
  'name = "Customer name"',
  '[concept.Line]',
  'description = "A line"',
  '[concept.Line.structure]',
  'label = "What was sold"',
  '[concept.Invoice]',
  'description = "An invoice"',
  '[concept.Invoice.structure]',
  'number = "Invoice number"',
  'customer = { type = "concept", concept_ref = "billing.Customer", description = "Customer" }',
  'lines = { type = "list", item_type = "concept", item_concept_ref = "billing.Line", description = "Lines" }',
  '[concept.Receipt]',
  'description = "A printed receipt"',
  'refines = "Document"',
].join('\n');

/**
 * A bundle of domain `billing` with one PipeDocGen `print` (input `invoice = "Invoice"` unless `inputs` is given).
 * @param fields - the pipe's other fields as TOML values, e.g. `{ format: '"pdf"' }`
 */
export function docGenBundle(fields: Record<string, string>): string {
  const all: Record<string, string> = { inputs: '{ invoice = "Invoice" }', output: '"Document"', ...fields };
  const lines = Object.entries(all).map(([key, value]) => `${key} = ${value}`);
  return bundle(
    'billing',
    `${CONCEPTS}\n[pipe.print]\ntype = "PipeDocGen"\ndescription = "Prints the invoice"\n${lines.join('\n')}`,
  );
}

/** The members every item about `print` carries. */
export const PRINT_ITEM = { source: 'bundle-1.mthds', pipe_code: 'print', domain_code: 'billing' } as const;
