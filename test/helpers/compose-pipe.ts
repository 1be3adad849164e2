/**
 * A PipeCompose table for template tests: one pipe reading the Text input `name` and rendering `template`.
 */

/**
 * The `.mthds` text of the pipe.
 * @param code - the pipe code
 * @param template - the template, written as a TOML multi-line literal string (no `'''` inside)
 */
export function composePipe(code: string, template: string): string {
  return `
[pipe.${code}]
type = "PipeCompose"
description = "${code}"
inputs = { name = "Text" }
output = "Text"
template = '''${template}'''
`;
}
