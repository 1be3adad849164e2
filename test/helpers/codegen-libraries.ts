/**
 * The libraries the codegen tests project: every valid bundle of the shared corpus alone, every published method
 * together with the documents package it calls, a library reading every native, and a two-file library exercising
 * every type-mapping rule.
 */
import type { BundleSource } from '../../shared/mthds/index.js';
import { corpusMethodBundles, corpusSampleFiles, corpusText, methodClosureFiles } from './corpus.js';

/** A named set of bundle sources forming one library. */
export interface NamedLibrary {
  name: string;
  sources: BundleSource[];
}

/** A library with two domains exercising the mapping: collisions, nesting, refinements, enums, defaults, dicts. */
export const EDGE_LIBRARY: NamedLibrary = {
  name: 'edge (two domains)',
  sources: [
    {
      source: 'shop.mthds',
      content: `domain = "shop"
description = "Shop"
main_pipe = "describe_order"

[concept.Item]
description = "An order line"

[concept.Item.structure]
sku = { type = "text", description = "Stock keeping unit", required = true }
quantity = { type = "integer", description = "How many", default_value = 1 }
unit_price = { type = "number", description = "Price of one unit", required = true }
gift = { type = "boolean", description = "Wrapped as a gift", default_value = false }
status = { type = "text", choices = ["open", "shipped", "cancelled"], description = "Line status", default_value = "open" }
class = { type = "text", description = "A keyword as a field name" }

[concept.Order]
description = "An order with lines"

[concept.Order.structure]
lines = { type = "list", item_type = "concept", item_concept_ref = "shop.Item", description = "Lines", required = true }
tags = { type = "list", description = "Free tags" }
scores = { type = "dict", key_type = "text", value_type = "number", description = "Scores by name" }
placed_on = { type = "date", description = "When it was placed" }
customer = { type = "concept", concept_ref = "Customer", description = "Who ordered" }
photo = { type = "concept", concept_ref = "Image", description = "A photo of the parcel" }
note = "A free note"

[concept.Customer]
description = "A customer"

[concept.Customer.structure]
name = { type = "text", description = "Name", required = true }
segment = { choices = ["retail", "wholesale"], description = "Market segment" }

[concept.Email]
description = "An e-mail"
refines = "Text"

[concept.UrgentEmail]
description = "An urgent e-mail"
refines = "shop.Email"

[concept.Remark]
description = "A description-only concept"

[concept.VipCustomer]
description = "A customer of note"
refines = "shop.Customer"

[pipe.describe_order]
type = "PipeLLM"
description = "Describe an order"
inputs = { order = "Order", mail = "Email" }
output = "Remark"
prompt = "Describe @order for $mail"

[pipe.list_items]
type = "PipeLLM"
description = "List the items of an order"
inputs = { order = "Order" }
output = "Item[]"
prompt = "List the items of @order"
`,
    },
    {
      source: 'warehouse.mthds',
      content: `domain = "warehouse"
description = "Warehouse"

[concept.Item]
description = "A stored item"

[concept.Item.structure]
location = { type = "text", description = "Shelf", required = true }
page = { type = "concept", concept_ref = "Page", description = "A scanned page" }

[pipe.locate]
type = "PipeLLM"
description = "Locate an item"
inputs = { item = "warehouse.Item", manual = "Document" }
output = "warehouse.Item"
prompt = "Locate @item using @manual"
`,
    },
  ],
};

/** A library whose one pipe reads every native concept, so each native's shape is projected and mock-checked. */
export const NATIVES_LIBRARY: NamedLibrary = {
  name: 'natives (every native as an input)',
  sources: [
    {
      source: 'natives.mthds',
      content: `domain = "natives"
description = "Every native concept, as the input of a pipe"

[pipe.use_every_native]
type = "PipeLLM"
description = "Read every native"
inputs = { text = "Text", markdown = "Markdown", number = "Number", image = "Image", document = "Document", html = "Html", text_and_images = "TextAndImages", page = "Page", json = "JSON", search_result = "SearchResult", yes_no = "YesNo", choice = "Choice", rating = "Rating", img_gen_prompt = "ImgGenPrompt", dynamic = "Dynamic", anything = "Anything", date = "Date", time = "Time", composite = "Composite" }
output = "Text"
prompt = "Read $text $markdown $number @image @document @html @text_and_images @page @json @search_result $yes_no $choice $rating $img_gen_prompt @dynamic @anything $date $time @composite"
`,
    },
  ],
};

/**
 * Every valid library of the corpus, the natives library and the edge library.
 * @returns single bundles (samples, and methods that call no other package), methods with the documents package they
 *   call (alone they are invalid: docs/namespaces.md#cross-package-references), {@link NATIVES_LIBRARY}, and {@link
 * EDGE_LIBRARY} (last)
 */
export function codegenLibraries(): NamedLibrary[] {
  const singles = [
    ...corpusSampleFiles().map((file) => `pipelex-api-samples/${file}`),
    ...corpusMethodBundles()
      .filter((bundle) => methodClosureFiles(bundle).length === 1)
      .map((bundle) => `methods/${bundle}`),
  ].map((path) => ({
    name: path,
    sources: [{ content: corpusText(path), source: path }],
  }));
  const withDocuments = corpusMethodBundles()
    .map((bundle) => ({ name: `methods/${bundle} + documents`, sources: methodClosureFiles(bundle) }))
    .filter((named) => named.sources.length > 1);
  return [...singles, ...withDocuments, NATIVES_LIBRARY, EDGE_LIBRARY];
}
