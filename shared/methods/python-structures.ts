/**
 * Finding Python structure classes in a fetched package's `.py` files: classes that derive from `StructuredContent`
 * (directly, through a dotted name such as `core.StructuredContent`, or through another class of the same file that
 * does). The text is parsed with the Lezer Python grammar, so comments and strings never count; nothing is imported
 * or executed.
 *
 * @see spec §2.2 (structure classes are always refused); docs/bundles.md#whole-bundle-transports,
 * docs/methods.md#shaping-and-gates
 */

import type { SyntaxNode } from '@lezer/common';
import { parser } from '@lezer/python';

const STRUCTURE_BASE = 'StructuredContent';

function baseNames(argList: SyntaxNode, text: string): string[] {
  const names: string[] = [];
  for (let child = argList.firstChild; child; child = child.nextSibling) {
    if (child.name === 'VariableName') names.push(text.slice(child.from, child.to));
    else if (child.name === 'MemberExpression' && child.lastChild?.name === 'PropertyName')
      names.push(text.slice(child.lastChild.from, child.lastChild.to));
  }
  return names;
}

/**
 * The structure classes a Python source declares.
 * @param text - the source
 * @returns class names, in source order
 */
export function structureClassesIn(text: string): string[] {
  const classes: { name: string; bases: string[] }[] = [];
  parser.parse(text).iterate({
    enter(node) {
      if (node.name !== 'ClassDefinition') return;
      const nameNode = node.node.getChild('VariableName');
      const argList = node.node.getChild('ArgList');
      if (nameNode)
        classes.push({ name: text.slice(nameNode.from, nameNode.to), bases: argList ? baseNames(argList, text) : [] });
    },
  });
  const structures = new Set([STRUCTURE_BASE]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const declared of classes) {
      if (!structures.has(declared.name) && declared.bases.some((base) => structures.has(base))) {
        structures.add(declared.name);
        grew = true;
      }
    }
  }
  return classes
    .filter((declared) => declared.name !== STRUCTURE_BASE && structures.has(declared.name))
    .map((declared) => declared.name);
}
