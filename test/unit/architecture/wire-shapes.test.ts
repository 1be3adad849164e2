/**
 * The wire layer is the one place wire shapes are defined (docs/architecture.md): the language core and the runtime
 * return domain values and `shared/wire` maps them to the shapes the API and the callbacks send. dependency-cruiser
 * refuses an import of `shared/wire` from either, and this test refuses a wire shape defined in either; `npm run
 * check:layers` runs both.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Where no wire shape may be defined: the runtime and the parts of the language core the wire renders. */
const DOMAIN_FOLDERS = ['shared/mthds', 'shared/runtime', 'shared/codegen'];

/** An exported type or interface named `…Wire`, or an exported function, method or const named `toWire`. */
const WIRE_EXPORT =
  /^\s*export\s+(?:declare\s+)?(?:(?:interface|type|class|enum)\s+\w*Wire\b|(?:async\s+)?function\s+toWire\b|(?:const|let)\s+toWire\b)|^\s*(?:public\s+)?toWire\s*\(/gm;

/** An exported type, interface or class, its name captured. */
const TYPE_EXPORT = /^\s*export\s+(?:declare\s+)?(?:interface|type|class)\s+(\w+)/gm;

function sources(folder: string): { file: string; text: string }[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => {
      const file = relative(ROOT, join(entry.parentPath, entry.name));
      return { file, text: readFileSync(join(ROOT, file), 'utf8') };
    });
}

function wireExports(folder: string): string[] {
  return sources(folder).flatMap(({ file, text }) =>
    [...text.matchAll(WIRE_EXPORT)].map((match) => `${file}: ${match[0].trim()}`),
  );
}

/** The names of the types `shared/wire` exports: the wire shapes. */
function wireShapeNames(): Set<string> {
  return new Set(
    sources('shared/wire').flatMap(({ text }) => [...text.matchAll(TYPE_EXPORT)].map((match) => match[1]!)),
  );
}

describe('wire shapes (docs/architecture.md)', () => {
  it('should define no wire shape in the language core or the runtime', () => {
    expect(DOMAIN_FOLDERS.flatMap(wireExports)).to.deep.equal([]);
  });

  it('should define no type of the name of a shape of shared/wire in the language core or the runtime', () => {
    const shapes = wireShapeNames();
    for (const moved of [
      'TokensUsageRecord',
      'RunUsageReport',
      'UsageFigures',
      'TokenCounts',
      'AbsenceRecord',
      'CrateInvalidReport',
      'GraphSpec',
    ])
      expect(shapes, `shared/wire defines ${moved}`).to.include(moved);
    const redefined = DOMAIN_FOLDERS.flatMap((folder) =>
      sources(folder).flatMap(({ file, text }) =>
        [...text.matchAll(TYPE_EXPORT)].filter((match) => shapes.has(match[1]!)).map((match) => `${file}: ${match[1]}`),
      ),
    );
    expect(redefined).to.deep.equal([]);
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
