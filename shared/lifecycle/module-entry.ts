/**
 * Where the entry module of a worker thread or child process is, in both forms the code runs in: the TypeScript
 * sources under tsx (`npm run dev`, the tests) and the compiled JavaScript of `dist/` (`npm start`, the image).
 * A module names its sibling without an extension; the sibling takes the extension of the module naming it.
 */

/**
 * The URL of the module `name` beside `base`, with `base`'s own extension (`.ts` from the sources, `.js` compiled).
 * @param name - the sibling's path relative to `base`, without extension (e.g. `./diagnostics-thread`)
 * @param base - the naming module's `import.meta.url`
 * @returns the sibling's file URL
 */
export function siblingModule(name: string, base: string): URL {
  return new URL(`${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}

/**
 * The Node options a child process needs to load `entry`: tsx's hooks for a TypeScript source, none for compiled
 * JavaScript.
 * @param entry - the child's entry module
 * @returns the options to put first in the child's `execArgv`
 */
export function loaderOptions(entry: URL): string[] {
  return entry.pathname.endsWith('.ts') ? ['--import', 'tsx'] : [];
}
