/**
 * S4: no template reads a `_`-prefixed attribute with a dot (`{{ contract._stuff }}`, `verdict.__class__`) other than
 * an input's metadata fields, and no construct `from` path walks through one: the sandbox refuses such reads at render
 * time, this rule locates them at load. Top-level `_` names (`_nb_output`) are run parameters and unaffected; a
 * bracketed key (`record["_id"]`) may be a plain dict's data and is left to the render.
 * @see docs/templates.md#private-names
 */
import { MthdsError } from '../../../errors/index.js';
import { ALLOWED_PRIVATE, templatePrivateNames } from '../../../templating/index.js';
import type { Pipe } from '../../library/concept.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOf } from '../rule-item.js';
import { templateSites } from './template-sites.js';

/** A template or `from` path of a pipe, the name the reference gives it in messages, and what it reads. */
interface PrivateRead {
  field: string;
  label: string;
  names: string[];
}

/** How the reference names a template in its message: `prompt`, `template`, `expression`, `construct field 'a.b'`. */
function labelOf(field: string): string {
  if (field.startsWith('construct.')) return `construct field '${field.slice('construct.'.length)}'`;
  if (field === 'template.template') return 'template';
  if (field === 'expression_template') return 'expression';
  return field;
}

function namesOf(template: string): string[] {
  try {
    return templatePrivateNames(template);
  } catch (error) {
    if (error instanceof MthdsError) return [];
    throw error;
  }
}

function fromReads(value: unknown, path: string, reads: PrivateRead[]): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  const table = value as Record<string, unknown>;
  if (typeof table['from'] === 'string') {
    const names = table['from']
      .split('.')
      .slice(1)
      .filter((segment) => segment.startsWith('_') && !ALLOWED_PRIVATE.has(segment));
    reads.push({ field: `${path}.from`, label: labelOf(path), names });
  } else if (!('template' in table))
    for (const [key, nested] of Object.entries(table)) fromReads(nested, `${path}.${key}`, reads);
}

function privateReads(pipe: Pipe): PrivateRead[] {
  const reads = templateSites(pipe).map((site) => ({
    field: site.field,
    label: labelOf(site.field),
    names: namesOf(site.template),
  }));
  if (pipe.blueprint.type === 'PipeCompose')
    for (const [key, value] of Object.entries(pipe.blueprint.construct ?? {}))
      fromReads(value, `construct.${key}`, reads);
  return reads;
}

/** S4 private names read by templates (`template_private_name`). */
export const privateNameReads: Rule = {
  id: 'S4-template-private-names',
  stage: 'S4',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'template_private_name',
  see: 'docs/rules.md#s4-template-private-names',
  check: (context) =>
    pipesOf(context).flatMap((pipe) =>
      privateReads(pipe).flatMap(({ field, label, names }) =>
        names.map((name) =>
          pipeItem(
            privateNameReads,
            pipe,
            MESSAGES.template_private_name({ pipe: pipe.code, label, name, allowed: [...ALLOWED_PRIVATE] }),
            pipeField(pipe, field),
          ),
        ),
      ),
    ),
};
