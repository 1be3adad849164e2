/**
 * The wire layer is the one place wire shapes are defined (docs/architecture.md): the language core and the runtime
 * return domain values and `shared/wire` maps them to the shapes the API and the callbacks send. dependency-cruiser
 * refuses an import of `shared/wire` from either (`npm run check:layers`); this test refuses a wire shape defined in
 * either.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** An exported type or interface named `…Wire`, or an exported function, method or const named `toWire`. */
const WIRE_EXPORT =
  /^\s*export\s+(?:declare\s+)?(?:(?:interface|type|class|enum)\s+\w*Wire\b|(?:async\s+)?function\s+toWire\b|(?:const|let)\s+toWire\b)|^\s*(?:public\s+)?toWire\s*\(/gm;

function wireExports(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .flatMap((entry) => {
      const file = relative(ROOT, join(entry.parentPath, entry.name));
      const text = readFileSync(join(ROOT, file), 'utf8');
      return [...text.matchAll(WIRE_EXPORT)].map((match) => `${file}: ${match[0].trim()}`);
    });
}

describe('wire shapes (docs/architecture.md)', () => {
  it('should define no wire shape in the language core or the runtime', () => {
    expect([...wireExports('shared/mthds'), ...wireExports('shared/runtime')]).to.deep.equal([]);
  });

  it('should recognise a wire shape when one is defined', () => {
    const samples = [
      'export interface StuffWire {',
      'export type GraphWire = {',
      'export function toWire(memory: WorkingMemory) {',
      '  toWire(): WorkingMemoryWire {',
    ];
    expect(samples.filter((line) => line.match(WIRE_EXPORT) !== null)).to.deep.equal(samples);
  });
});
