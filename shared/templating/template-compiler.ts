/**
 * Compiling templates to nunjucks `Template`s whose JavaScript is shared between templates of the same shape.
 *
 * nunjucks compiles each template to the source of a JavaScript function and evaluates it with `new Function`; the
 * JavaScript engine's parse and compile of that source is most of the cost of a new template. Templates that differ
 * only in their text between tags and in the names they look up (`Rewrite {{ a }}` and `Frame {{ b }}`) compile to
 * the same source once those strings are read from a table instead of written in the code: this module compiles with
 * nunjucks' own compiler, except that the text of a `TemplateData` node and the name of a looked-up variable are
 * emitted as `texts$[i]`. The function built from that source (a factory taking the table) is kept by source, and each
 * template gets its own closure over its own table, which evaluates to the strings nunjucks would have written as
 * literals: the output and the errors are nunjucks'.
 *
 * The rest of the compile is nunjucks': its parser (with the environment's lexer options and extensions; or the tree
 * `readTemplate` parsed from the same text for the template's checks, when the environment lexes by default), its
 * transformer (with the environment's async filters; skipped when it would give the tree back unchanged), and the
 * errors of a failed compile, prettified as
 * `Template.init` does.
 */
import { createRequire } from 'node:module';
import { LRUCache } from 'lru-cache';
import { hardenedNunjucks } from './sandbox.js';
import { takeParsedTemplate } from './template-readings.js';

type Environment = InstanceType<typeof hardenedNunjucks.Environment>;
type Template = InstanceType<typeof hardenedNunjucks.Template>;

/** The compiled functions of one template, as nunjucks' generated code returns them (`root`, `b_<block>`). */
type TemplateProps = Record<string, unknown>;
/** A compiled factory: the generated code, given the template's table of strings. */
type PropsFactory = (texts: readonly string[]) => TemplateProps;

/** The precompiled form `Template` accepts in place of a text (missing from nunjucks' type definitions). */
interface TemplateObject {
  type: 'code';
  obj: TemplateProps;
}

/** A node of the nunjucks AST, as the compiler overrides read it. */
interface CompiledNode {
  value: unknown;
}

/** A node of the nunjucks AST, as {@link containsBlock} walks it: its fields by name. */
interface TreeNode {
  fields: string[];
  [field: string]: unknown;
}

/** The nunjucks frame of the compiler: the JavaScript name a template variable is bound to, if any. */
interface CompilerFrame {
  lookup(name: string): string | undefined;
}

/** The members of nunjucks' compiler this module overrides or calls. */
interface NunjucksCompiler {
  compileLiteral(node: CompiledNode, frame: CompilerFrame): void;
  compileSymbol(node: CompiledNode, frame: CompilerFrame): void;
  compile(node: unknown, frame?: CompilerFrame): void;
  getCode(): string;
  _emit(code: string): void;
}

/** The parts of the nunjucks module the compile uses (not in its type definitions). */
interface NunjucksInternals {
  compiler: { Compiler: new (name: string | undefined, throwOnUndefined: boolean) => NunjucksCompiler };
  parser: { parse(source: string, extensions: unknown[], options: object): unknown };
  nodes: {
    Node: abstract new (...args: never[]) => TreeNode;
    Block: abstract new (...args: never[]) => object;
    TemplateData: abstract new (...args: never[]) => CompiledNode;
  };
  lib: { _prettifyError(path: string | undefined, withInternals: boolean, error: unknown): Error };
}

/** The environment's members the compile reads (nunjucks' own `Template._compile` reads the same). */
interface EnvironmentInternals {
  opts: { dev?: boolean; throwOnUndefined?: boolean; trimBlocks?: boolean; lstripBlocks?: boolean; tags?: object };
  asyncFilters: string[];
  extensionsList: unknown[];
}

/** nunjucks' AST transformer (the compile step between parse and code generation), which its index does not export. */
interface NunjucksTransformer {
  transform(ast: unknown, asyncFilters: string[], name: string | undefined): unknown;
}

const internals = hardenedNunjucks as unknown as NunjucksInternals;
const transformer = createRequire(import.meta.url)('nunjucks/src/transformer') as NunjucksTransformer;

/** The parameter of a factory, the table of strings; generated code names its variables `t_<n>` and `l_<name>`. */
const TEXTS = 'texts$';

/**
 * Characters of generated code whose factories are kept (least recently used dropped first): a few hundred to a few
 * thousand characters per shape of template, so thousands of shapes.
 */
const FACTORIES_MAX_CHARS = 8 * 1024 * 1024;

/** Factories by generated code. */
const factories = new LRUCache<string, PropsFactory>({
  maxSize: FACTORIES_MAX_CHARS,
  sizeCalculation: (_factory, code) => code.length,
});

/**
 * nunjucks' compiler, emitting the texts of `TemplateData` nodes and the names of looked-up variables as `texts$[i]`.
 */
function tableCompiler(throwOnUndefined: boolean, texts: string[]): NunjucksCompiler {
  const compiler = new internals.compiler.Compiler(undefined, throwOnUndefined);
  const compileLiteral = compiler.compileLiteral;
  const text = (value: string) => `${TEXTS}[${texts.push(value) - 1}]`;
  compiler.compileLiteral = function (this: NunjucksCompiler, node, frame) {
    if (node instanceof internals.nodes.TemplateData && typeof node.value === 'string') this._emit(text(node.value));
    else compileLiteral.call(this, node, frame);
  };
  compiler.compileSymbol = function (this: NunjucksCompiler, node, frame) {
    const name = String(node.value);
    const bound = frame.lookup(name);
    this._emit(bound ? bound : `runtime.contextOrFrameLookup(context, frame, ${text(name)})`);
  };
  return compiler;
}

/**
 * Whether the environment parses as {@link takeParsedTemplate}'s trees were parsed: default lexer options, no
 * extension.
 */
function defaultLexing(environment: EnvironmentInternals): boolean {
  const { trimBlocks, lstripBlocks, tags } = environment.opts;
  return !trimBlocks && !lstripBlocks && !tags && environment.extensionsList.length === 0;
}

/** Whether a tree has a `{% block %}` (whose `super()` calls nunjucks' transformer rewrites). */
function containsBlock(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(containsBlock);
  if (!(node instanceof internals.nodes.Node)) return false;
  if (node instanceof internals.nodes.Block) return true;
  const tree = node as TreeNode;
  return tree.fields.some((field) => containsBlock(tree[field]));
}

/**
 * Whether nunjucks' transformer would give the tree back unchanged, so the compile can skip its three walks of the
 * tree: it lifts async filters and async extension calls (none without async filters and extensions), converts the
 * `if` and `for` that hold them (none then), and rewrites `super()` in blocks (none without a block).
 */
function transformsToItself(ast: unknown, environment: EnvironmentInternals): boolean {
  return environment.asyncFilters.length === 0 && environment.extensionsList.length === 0 && !containsBlock(ast);
}

function compiledProps(source: string, environment: EnvironmentInternals): TemplateProps {
  const texts: string[] = [];
  const compiler = tableCompiler(environment.opts.throwOnUndefined === true, texts);
  const ast =
    (defaultLexing(environment) ? takeParsedTemplate(source) : undefined) ??
    internals.parser.parse(source, environment.extensionsList, environment.opts);
  compiler.compile(
    transformsToItself(ast, environment) ? ast : transformer.transform(ast, environment.asyncFilters, undefined),
  );
  const code = compiler.getCode();
  let factory = factories.get(code);
  if (!factory) {
    factory = new Function(TEXTS, code) as PropsFactory;
    factories.set(code, factory);
  }
  return factory(texts);
}

/**
 * Compile a template as `new Template(source, environment, undefined, true)` would, sharing the generated code with
 * earlier templates of the same shape.
 * @param source - template text in nunjucks syntax (shorthands expanded)
 * @param environment - the environment it renders in
 * @returns the compiled template
 * @throws the error nunjucks' eager compile throws (a prettified `Error` named `Template render error`)
 */
export function compileTemplate(source: string, environment: Environment): Template {
  const settings = environment as unknown as EnvironmentInternals;
  let props: TemplateProps;
  try {
    props = compiledProps(source, settings);
  } catch (error) {
    throw internals.lib._prettifyError(undefined, settings.opts.dev === true, error);
  }
  const compiled: TemplateObject = { type: 'code', obj: props };
  return new hardenedNunjucks.Template(compiled as unknown as string, environment, undefined, true);
}
