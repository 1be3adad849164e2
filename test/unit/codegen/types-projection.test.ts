import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { parse } from 'smol-toml';
import { CODEGEN_TARGETS, generateTypes, type StampedProjection } from '../../../shared/codegen/generate-types.js';
import { contentHash } from '../../../shared/codegen/stamp.js';
import { buildTypeSet } from '../../../shared/codegen/type-set.js';
import { mockValuesForSchema } from '../../../shared/inference/index.js';
import { type Library, loadLibrary, NATIVE_CONCEPTS } from '../../../shared/mthds/index.js';
import { ContentValidator } from '../../../shared/runtime/content-validator.js';
import { mockContent } from '../../../shared/runtime/mock-output.js';
import { codegenLibraries, EDGE_LIBRARY, NATIVES_LIBRARY, type NamedLibrary } from '../../helpers/codegen-libraries.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const STAMP_END = '<<< pipelex-codegen-stamp <<<\n';

function load(named: NamedLibrary): Library {
  const loaded = loadLibrary(named.sources);
  if (!loaded.ok) throw new Error(`${named.name}: ${loaded.message}`);
  return loaded.library;
}

/** One case: the emitted type name, the runtime's mock content, and whether the schema must accept it. */
interface MockCase {
  type: string;
  value: unknown;
  accept: boolean;
}

/** Every property replaced by a value no field type accepts (a nested list); an empty object gains an unknown key. */
function corrupted(value: unknown): unknown {
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  if (keys.length === 0) return { __corrupted__: [['x']] };
  return Object.fromEntries(keys.map((key) => [key, [['corrupted']]]));
}

/** The runtime's dry-run mock of one content item of every emitted concept (open ones excepted), and its corruption. */
function mockCases(library: Library): MockCase[] {
  const validator = new ContentValidator(library);
  const types = buildTypeSet(library);
  return types.concepts
    .filter((typed) => typed.shape.kind !== 'open')
    .flatMap((typed) => {
      const content = mockContent(
        { mockValues: mockValuesForSchema },
        validator,
        library.concepts.get(typed.ref)!,
        'single',
        typed.ref,
      );
      if (content.kind !== 'item') throw new Error('single mock expected');
      return [
        { type: typed.name, value: content.item, accept: true },
        { type: typed.name, value: corrupted(content.item), accept: false },
      ];
    });
}

function bodyOf(content: string): string {
  return content.slice(content.indexOf(STAMP_END) + STAMP_END.length);
}

function pydanticAvailable(): boolean {
  return (
    spawnSync('python3', ['-c', 'import pydantic, sys; sys.exit(0 if pydantic.VERSION.startswith("2") else 1)'])
      .status === 0
  );
}

const PYTHON_CHECK = `
import importlib.util, json, sys
failures = []
for entry in json.load(open(sys.argv[1])):
    spec = importlib.util.spec_from_file_location(entry["module_name"], entry["module"])
    module = importlib.util.module_from_spec(spec)
    sys.modules[entry["module_name"]] = module
    spec.loader.exec_module(module)
    for case in entry["cases"]:
        try:
            getattr(module, case["type"]).model_validate(case["value"])
            accepted = True
        except Exception:
            accepted = False
        if accepted != case["accept"]:
            failures.append(f'{entry["name"]}: {case["type"]} should {"accept" if case["accept"] else "reject"} {json.dumps(case["value"])}')
print(json.dumps(failures))
`;

describe('codegen types projection', function () {
  this.timeout(180000);
  const libraries = codegenLibraries().map((named) => ({ named, library: load(named) }));
  const projections = libraries.map(({ named, library }) => ({
    named,
    library,
    byTarget: Object.fromEntries(CODEGEN_TARGETS.map((target) => [target, generateTypes(library, target)])) as Record<
      (typeof CODEGEN_TARGETS)[number],
      StampedProjection
    >,
  }));
  let scratch: string;

  before(() => {
    mkdirSync(join(ROOT, '.scratch'), { recursive: true });
    scratch = mkdtempSync(join(ROOT, '.scratch', 'codegen-'));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('should cover the 12 corpus libraries (methods calling documents only with it), the natives library and the edge library, with a mock per emitted concept', () => {
    expect(projections).to.have.length(14);
    const cases = projections.flatMap(({ library }) => mockCases(library));
    expect(cases.filter((testCase) => testCase.accept).length).to.be.greaterThan(80);
    expect(cases.filter((testCase) => !testCase.accept).length).to.equal(
      cases.filter((testCase) => testCase.accept).length,
    );
  });

  describe('when projecting the natives', () => {
    it('should emit every native of natives.ts, ImgGenPrompt as TextContent', () => {
      const types = buildTypeSet(load(NATIVES_LIBRARY));
      expect(types.concepts.map((typed) => typed.ref)).to.have.members(
        [...NATIVE_CONCEPTS.keys()].filter((code) => code !== 'ImgGenPrompt').map((code) => `native.${code}`),
      );
      expect(types.nameOf('native.ImgGenPrompt')).to.equal('TextContent');
    });

    it("should read Image.size from the runtime's schema: an object of an integer width and height", () => {
      const image = buildTypeSet(load(NATIVES_LIBRARY)).conceptOf('native.Image');
      const size =
        image.shape.kind === 'struct' ? image.shape.fields.find((field) => field.name === 'size') : undefined;
      expect(size).to.deep.equal({
        name: 'size',
        description: '',
        required: false,
        type: {
          kind: 'object',
          name: 'Size',
          fields: [
            { name: 'width', description: '', required: false, type: { kind: 'integer' } },
            { name: 'height', description: '', required: false, type: { kind: 'integer' } },
          ],
        },
      });
    });

    it('should reject an Image whose size is not {width, height} integers, in ts-zod', async () => {
      const file = join(scratch, 'natives-size.ts');
      writeFileSync(file, generateTypes(load(NATIVES_LIBRARY), 'ts-zod').artifacts[0]!.content);
      const module = (await import(pathToFileURL(file).href)) as Record<
        string,
        { safeParse(value: unknown): { success: boolean } }
      >;
      expect(module['ImageContentSchema']!.safeParse({ url: 'u', size: { width: 1, height: 2 } }).success).to.equal(
        true,
      );
      expect(module['ImageContentSchema']!.safeParse({ url: 'u', size: { width: 'wide' } }).success).to.equal(false);
    });
  });

  describe('when stamping and locking', () => {
    it('should stamp every artifact with the fingerprint, engine version, projection and the hash of its body', () => {
      for (const { byTarget } of projections) {
        for (const [target, projection] of Object.entries(byTarget)) {
          const [artifact] = projection.artifacts;
          const prefix = target === 'ts-zod' ? '//' : '#';
          const body = bodyOf(artifact!.content);
          expect(artifact!.content.split('\n').slice(0, 7)).to.deep.equal([
            `${prefix} >>> pipelex-codegen-stamp >>>`,
            `${prefix} crate_fingerprint: ${projection.crate_fingerprint}`,
            `${prefix} engine_version: ${projection.engine_version}`,
            `${prefix} projection: types / ${target}`,
            `${prefix} options: {}`,
            `${prefix} content_hash: ${contentHash(body)}`,
            `${prefix} <<< pipelex-codegen-stamp <<<`,
          ]);
          expect(projection.crate_fingerprint).to.match(/^[0-9a-f]{64}$/);
        }
      }
    });

    it('should write a lock that records the fingerprint, engine version and each artifact body hash', () => {
      const projection = projections.at(-1)!.byTarget['python-pydantic'];
      expect(projection.lock_filename).to.equal('codegen.lock');
      expect(
        projection.lock.startsWith(
          '# codegen.lock — generated artifact set (Pipelex codegen). Do not edit by hand.\n\ncrate_fingerprint = ',
        ),
      ).to.equal(true);
      expect(parse(projection.lock)).to.deep.equal({
        crate_fingerprint: projection.crate_fingerprint,
        engine_version: projection.engine_version,
        artifacts: [{ path: 'models.py', content_hash: contentHash(bodyOf(projection.artifacts[0]!.content)) }],
      });
    });

    it('should name the artifact of each target', () => {
      expect(
        Object.values(projections[0]!.byTarget).map((projection) =>
          projection.artifacts.map((artifact) => artifact.path),
        ),
      ).to.deep.equal([['types.ts'], ['models.py'], ['structures.py']]);
    });
  });

  describe('when the files of a library come in another order', () => {
    it('should give identical artifacts and lock', () => {
      const multiFile = projections.filter(({ named }) => named.sources.length > 1);
      expect(multiFile.length).to.be.greaterThan(1);
      for (const { named, byTarget } of multiFile) {
        const reversed = load({ name: named.name, sources: [...named.sources].reverse() });
        for (const target of CODEGEN_TARGETS)
          expect(generateTypes(reversed, target), `${named.name} ${target}`).to.deep.equal(byTarget[target]);
      }
    });

    it('should give another fingerprint for another library', () => {
      const fingerprints = new Set(projections.map(({ byTarget }) => byTarget['ts-zod'].crate_fingerprint));
      expect(fingerprints.size).to.equal(projections.length);
    });
  });

  describe('when mapping the edge library', () => {
    const edge = projections.find(({ named }) => named === EDGE_LIBRARY)!;
    const ts = bodyOf(edge.byTarget['ts-zod'].artifacts[0]!.content);
    const python = bodyOf(edge.byTarget['python-pydantic'].artifacts[0]!.content);

    it('should qualify the codes two domains share and keep the others bare', () => {
      expect(ts)
        .to.include('export interface ShopItem {')
        .and.include('export interface WarehouseItem {')
        .and.include('export interface Order {');
      expect(python).to.include('class ShopItem(BaseModel):').and.include('class WarehouseItem(BaseModel):');
    });

    it('should map required, optional, defaults and enums', () => {
      expect(ts).to.include('    sku: z.string(),\n');
      expect(ts).to.include('    quantity: z.number().int().nullish().default(1),\n');
      expect(ts).to.include('    status: z.enum(["open", "shipped", "cancelled"]).nullish().default("open"),\n');
      expect(python).to.include('    sku: str = Field(..., description="Stock keeping unit")\n');
      expect(python).to.include('    gift: Optional[bool] = Field(default=False, description="Wrapped as a gift")\n');
      expect(python).to.include(
        '    status: Optional[Literal["open", "shipped", "cancelled"]] = Field(default="open", description="Line status")\n',
      );
    });

    it('should map lists, dicts, dates, nested concepts and natives', () => {
      expect(ts).to.include('  lines: Array<ShopItem>;\n').and.include('    tags: z.array(z.string()).nullish(),\n');
      expect(ts)
        .to.include('    scores: z.record(z.string(), z.number()).nullish(),\n')
        .and.include('    placed_on: z.string().nullish(),\n');
      expect(ts).to.include('    photo: ImageContentSchema.nullish(),\n');
      expect(python).to.include('    lines: List[ShopItem] = Field(..., description="Lines")\n');
      expect(python).to.include(
        '    scores: Optional[Dict[str, float]] = Field(default=None, description="Scores by name")\n',
      );
    });

    it('should make refinements and description-only concepts take their parent shape', () => {
      expect(ts)
        .to.include('export type Email = TextContent;')
        .and.include('export type UrgentEmail = Email;')
        .and.include('export type Remark = TextContent;');
      expect(python)
        .to.include('class Email(TextContent):')
        .and.include('class UrgentEmail(Email):')
        .and.include('class VipCustomer(Customer):');
    });

    it('should alias a field named as a Python keyword', () => {
      expect(python).to.include(
        '    class_: Optional[str] = Field(default=None, alias="class", description="A keyword as a field name")\n',
      );
    });

    it('should emit every class after the classes it depends on', () => {
      const order = [...python.matchAll(/^class (\w+)\(/gm)].map((match) => match[1]);
      expect(order.indexOf('PageContent')).to.be.lessThan(order.indexOf('WarehouseItem'));
      expect(order.indexOf('TextAndImagesContent')).to.be.lessThan(order.indexOf('PageContent'));
      expect(order.indexOf('ShopItem')).to.be.lessThan(order.indexOf('Order'));
      expect(order.indexOf('Email')).to.be.lessThan(order.indexOf('UrgentEmail'));
    });
  });

  describe('when compiling the ts-zod artifacts', () => {
    it('should type-check every artifact with tsc --strict', () => {
      const files = projections.map((projection, index) => {
        const file = join(scratch, `ts-${index}`, 'types.ts');
        mkdirSync(join(scratch, `ts-${index}`));
        writeFileSync(file, projection.byTarget['ts-zod'].artifacts[0]!.content);
        return file;
      });
      const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
      const args = [
        '--strict',
        '--noEmit',
        '--skipLibCheck',
        '--target',
        'es2022',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        ...files,
      ];
      const result = spawnSync(tsc, args, { encoding: 'utf8' });
      expect(result.stdout + result.stderr).to.equal('');
      expect(result.status).to.equal(0);
    });

    it('should accept the runtime mock output of every concept and reject a corrupted one', async () => {
      const failures: string[] = [];
      for (const [index, { named, library, byTarget }] of projections.entries()) {
        const file = join(scratch, `run-${index}.ts`);
        writeFileSync(file, byTarget['ts-zod'].artifacts[0]!.content);
        const module = (await import(pathToFileURL(file).href)) as Record<
          string,
          { safeParse(value: unknown): { success: boolean } }
        >;
        for (const testCase of mockCases(library)) {
          if (module[`${testCase.type}Schema`]!.safeParse(testCase.value).success !== testCase.accept)
            failures.push(`${named.name}: ${testCase.type} ${JSON.stringify(testCase.value)}`);
        }
      }
      expect(failures).to.deep.equal([]);
    });
  });

  describe('when importing the Python artifacts', () => {
    for (const target of ['python-pydantic', 'python-structures'] as const) {
      it(`should compile and import every ${target} artifact under pydantic 2 and validate the mock outputs`, function () {
        if (!pydanticAvailable()) {
          console.warn(`      skipped ${target}: python3 with pydantic 2 is not installed on this machine`);
          this.skip();
        }
        const entries = projections.map(({ named, library, byTarget }, index) => {
          const module = join(scratch, `${target}-${index}.py`);
          writeFileSync(module, byTarget[target].artifacts[0]!.content);
          return { name: named.name, module, module_name: `generated_${index}`, cases: mockCases(library) };
        });
        const manifest = join(scratch, `${target}.json`);
        writeFileSync(manifest, JSON.stringify(entries));
        const output = execFileSync('python3', ['-c', PYTHON_CHECK, manifest], { encoding: 'utf8' });
        expect(JSON.parse(output)).to.deep.equal([]);
      });
    }
  });
});
