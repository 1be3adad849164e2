/**
 * The Python projections (spec §4.7): `python-pydantic` (`models.py`, self-contained pydantic 2 `BaseModel`s) and
 * `python-structures` (`structures.py`, `StructuredContent` classes for a Pipelex host, with a plain-pydantic stand-in
 * for `StructuredContent` where Pipelex is not installed). One class per emitted concept, named as in the type model.
 *
 * Mapping: text/date/datetime/time → `str` (they travel as ISO strings), integer → `int`, number → `float`, boolean →
 * `bool`,
 * choices → `Literal[…]`, list → `List[…]`, dict → `Dict[str, …]`, concept → the concept's class, a native's inline
 * object (`Image.size`) → a `BaseModel` nested in its class (`ImageContent.Size`); an optional field is
 * `Optional[…]` defaulting to None or its `default_value`. A refinement subclasses its parent (a refinement of `Text`
 * subclasses `TextContent`); a declared concept forbids unknown keys; `Dynamic` / `Anything` allow any keys. A field
 * whose wire name is a Python keyword or a pydantic attribute gets a trailing `_` and the wire name as alias.
 * Annotations are postponed and every class is rebuilt at the end, so reference cycles resolve.
 */
import type { FieldType, TypedConcept, TypedField, TypeSet } from './type-model.js';

/** The Python targets. */
export type PythonTarget = 'python-pydantic' | 'python-structures';

/** The artifact path of each Python target. */
export const PYTHON_PATHS: Readonly<Record<PythonTarget, string>> = {
  'python-pydantic': 'models.py',
  'python-structures': 'structures.py',
};

const KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);
const MODEL_ATTRIBUTES = new Set([
  'copy',
  'dict',
  'json',
  'schema',
  'schema_json',
  'construct',
  'validate',
  'fields',
  'parse_obj',
  'parse_raw',
  'parse_file',
  'from_orm',
  'update_forward_refs',
]);

/**
 * A Python literal for a JSON value (`true` → `True`, `null` → `None`, objects → dicts).
 * @param value - a JSON-compatible value
 */
export function pythonLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'None';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([name, item]) => `${JSON.stringify(name)}: ${pythonLiteral(item)}`)
    .join(', ')}}`;
}

/**
 * The Python attribute name of a wire field name.
 * @param name - the wire name
 * @returns the name, or `name_` when it is a keyword or a pydantic attribute
 */
export function pythonAttribute(name: string): string {
  return KEYWORDS.has(name) || MODEL_ATTRIBUTES.has(name) || name.startsWith('model_') ? `${name}_` : name;
}

function annotation(types: TypeSet, type: FieldType): string {
  switch (type.kind) {
    case 'text':
    case 'date':
    case 'datetime':
    case 'time':
      return 'str';
    case 'integer':
      return 'int';
    case 'number':
      return 'float';
    case 'boolean':
      return 'bool';
    case 'any':
      return 'Any';
    case 'enum':
      return `Literal[${type.choices.map((choice) => JSON.stringify(choice)).join(', ')}]`;
    case 'list':
      return `List[${annotation(types, type.item)}]`;
    case 'dict':
      return `Dict[str, ${annotation(types, type.value)}]`;
    case 'object':
      return type.name;
    case 'concept':
      return types.nameOf(type.ref);
  }
}

function fieldLine(types: TypeSet, field: TypedField): string {
  const attribute = pythonAttribute(field.name);
  const type = annotation(types, field.type);
  const arguments_: string[] = [];
  if (field.default !== undefined) arguments_.push(`default=${pythonLiteral(field.default)}`);
  else arguments_.push(field.required ? '...' : 'default=None');
  if (attribute !== field.name) arguments_.push(`alias=${JSON.stringify(field.name)}`);
  if (field.description.length > 0) arguments_.push(`description=${JSON.stringify(field.description)}`);
  return `    ${attribute}: ${field.required ? type : `Optional[${type}]`} = Field(${arguments_.join(', ')})`;
}

/** The nested classes of a struct's inline-object fields (`Image.size` → `class Size(BaseModel)`), indented in it. */
function inlineClasses(types: TypeSet, fields: TypedField[]): string[] {
  return fields.flatMap((field) => {
    if (field.type.kind !== 'object') return [];
    const body = [
      ...inlineClasses(types, field.type.fields),
      '    model_config = ConfigDict(extra="ignore", populate_by_name=True)',
      ...field.type.fields.map((member) => fieldLine(types, member)),
    ];
    return [`    class ${field.type.name}(BaseModel):`, ...body.map((line) => `    ${line}`), ''];
  });
}

function classBlock(types: TypeSet, concept: TypedConcept, root: string): string {
  const docstring = `    ${JSON.stringify(concept.description.length > 0 ? concept.description : concept.ref)}`;
  const { shape } = concept;
  switch (shape.kind) {
    case 'alias':
      return `class ${concept.name}(${types.nameOf(shape.target)}):\n${docstring}`;
    case 'open':
      return `class ${concept.name}(${root}):\n${docstring}\n\n    model_config = ConfigDict(extra="allow")`;
    case 'struct': {
      const extra = shape.closed ? 'forbid' : 'ignore';
      const lines = shape.fields.map((field) => fieldLine(types, field));
      return [
        `class ${concept.name}(${root}):`,
        docstring,
        '',
        ...inlineClasses(types, shape.fields),
        `    model_config = ConfigDict(extra="${extra}", populate_by_name=True)`,
        ...lines,
      ].join('\n');
    }
  }
}

const STRUCTURED_CONTENT_IMPORT = [
  'try:',
  '    from pipelex.core.stuffs.structured_content import StructuredContent',
  'except ImportError:  # not on a Pipelex host: the same base on plain pydantic',
  '',
  '    class StructuredContent(BaseModel):  # type: ignore[no-redef]',
  '        "The base of structured concept contents."',
];

/**
 * Emit a Python module body (unstamped).
 * @param types - the library's type model
 * @param target - `python-pydantic` or `python-structures`
 * @returns Python 3.9+ source needing pydantic 2
 * @see spec §4.7, docs/concepts.md#structure-fields, docs/runtime.md#native-contents
 */
export function emitPython(types: TypeSet, target: PythonTarget): string {
  const root = target === 'python-pydantic' ? 'BaseModel' : 'StructuredContent';
  const classes = types.concepts.map((concept) => classBlock(types, concept, root));
  const rebuilds = types.concepts.map((concept) => `${concept.name}.model_rebuild()`);
  return [
    `"""Models of the MTHDS concepts of a method (projection types / ${target}). Generated by codegen; do not edit."""`,
    '',
    'from __future__ import annotations',
    '',
    'from typing import Any, Dict, List, Literal, Optional',
    '',
    'from pydantic import BaseModel, ConfigDict, Field',
    ...(target === 'python-structures' ? ['', ...STRUCTURED_CONTENT_IMPORT] : []),
    '',
    '',
    classes.join('\n\n\n'),
    '',
    '',
    ...rebuilds,
    '',
  ].join('\n');
}
