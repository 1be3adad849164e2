/**
 * The examples of a README, read from its fenced blocks as a reader would paste them: the `curl` commands of its `bash`
 * blocks (shell quoting and line continuations undone) with the answer the README shows for each — the comment lines
 * that follow it (`# 202 {…}`: an optional status, then a JSON skeleton, see `json-skeleton.ts`), or a `json` block
 * that
 * follows the `bash` block (the answer of its last command) — and its `js` blocks.
 */

/** A fenced block and the `##` section it sits in. */
interface FencedBlock {
  language: string;
  text: string;
  section: string;
  /** 1-based line of the opening fence. */
  line: number;
}

/** A `curl` command of the README, as the request it sends. */
export interface CurlExample {
  section: string;
  /** 1-based line of its block's opening fence. */
  line: number;
  /** The command as written, for messages. */
  command: string;
  method: string;
  /** Path and query of its URL (the host, `localhost:8081`, is the server under test). */
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** What the README shows as the answer: a status, a JSON skeleton, either or none. */
  answer: { status: number | undefined; skeleton: string | undefined };
}

/** A `js` block of the README. */
export interface ScriptExample {
  section: string;
  line: number;
  code: string;
}

/** A shell command: its words, and the comments written on its line or on the lines after it. */
interface ShellCommand {
  words: string[];
  comments: string[];
}

function fencedBlocks(markdown: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  let section = '';
  let open: { language: string; line: number; lines: string[] } | undefined;
  markdown.split('\n').forEach((text, index) => {
    if (open) {
      if (text.startsWith('```')) {
        blocks.push({ language: open.language, text: open.lines.join('\n'), section, line: open.line });
        open = undefined;
      } else open.lines.push(text);
    } else if (text.startsWith('```')) open = { language: text.slice(3).trim(), line: index + 1, lines: [] };
    else if (text.startsWith('## ')) section = text.slice(3).trim();
  });
  return blocks;
}

/** Split shell text into commands, undoing quotes, backslash escapes and line continuations (no expansions). */
function shellCommands(text: string): ShellCommand[] {
  const commands: ShellCommand[] = [];
  let words: string[] = [];
  let word: string | undefined;
  let lastCommand: ShellCommand | undefined;
  const endWord = () => {
    if (word !== undefined) words.push(word);
    word = undefined;
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) {
      lastCommand = { words, comments: [] };
      commands.push(lastCommand);
    }
    words = [];
  };
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index]!;
    if (character === "'") {
      const close = text.indexOf("'", index + 1);
      if (close < 0) throw new Error('shell: unterminated single quote');
      word = (word ?? '') + text.slice(index + 1, close);
      index = close;
    } else if (character === '"') {
      let value = '';
      index += 1;
      while (index < text.length && text[index] !== '"') {
        if (text[index] === '\\' && '"\\$`\n'.includes(text[index + 1] ?? '')) index += 1;
        value += text[index];
        index += 1;
      }
      word = (word ?? '') + value;
    } else if (character === '\\') {
      index += 1;
      if (text[index] !== '\n') word = (word ?? '') + (text[index] ?? '');
    } else if (character === '#' && word === undefined) {
      const end = text.indexOf('\n', index);
      const comment = text.slice(index + 1, end < 0 ? undefined : end).replace(/^ /, '');
      endCommand();
      lastCommand?.comments.push(comment);
      index = end < 0 ? text.length : end;
    } else if (character === '\n') endCommand();
    else if (character === ' ' || character === '\t') endWord();
    else word = (word ?? '') + character;
  }
  endCommand();
  return commands;
}

function answerOf(comments: string[], command: string): CurlExample['answer'] {
  const text = comments.join('\n').trim();
  if (text === '') return { status: undefined, skeleton: undefined };
  const match = /^(\d{3})?\s*([[{][\s\S]*)?$/.exec(text);
  if (!match)
    throw new Error(`README: the comment after \`${command}\` is not an answer (a status, then JSON): ${text}`);
  return { status: match[1] ? Number(match[1]) : undefined, skeleton: match[2] };
}

function curlExample(command: ShellCommand, block: FencedBlock): CurlExample {
  const shown = command.words.join(' ');
  const headers: Record<string, string> = {};
  let method: string | undefined;
  let body: string | undefined;
  let url: string | undefined;
  const words = command.words.slice(1);
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index]!;
    const argument = () => {
      index += 1;
      const value = words[index];
      if (value === undefined) throw new Error(`README: ${word} without a value in \`${shown}\``);
      return value;
    };
    if (word === '-s' || word === '--silent') continue;
    if (word === '-H' || word === '--header') {
      const header = argument();
      const colon = header.indexOf(':');
      headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
    } else if (['-d', '--data', '--data-raw', '--data-binary'].includes(word)) body = argument();
    else if (word === '-X' || word === '--request') method = argument();
    else if (word.startsWith('-'))
      throw new Error(`README: curl option ${word} is not understood by the example runner`);
    else url = word;
  }
  if (url === undefined) throw new Error(`README: no URL in \`${shown}\``);
  const parsed = new URL(/^https?:\/\//.test(url) ? url : `http://${url}`);
  return {
    section: block.section,
    line: block.line,
    command: shown,
    method: method ?? (body === undefined ? 'GET' : 'POST'),
    path: `${parsed.pathname}${parsed.search}`,
    headers,
    body,
    answer: answerOf(command.comments, shown),
  };
}

/**
 * The `curl` examples of a README, in order.
 * @param markdown - the README text
 * @throws Error for a command or an answer comment the runner cannot read (so the README stays testable)
 */
export function curlExamples(markdown: string): CurlExample[] {
  const examples: CurlExample[] = [];
  let afterBash: CurlExample | undefined;
  for (const block of fencedBlocks(markdown)) {
    if (block.language === 'bash') {
      const curls = shellCommands(block.text)
        .filter((command) => command.words[0] === 'curl')
        .map((command) => curlExample(command, block));
      examples.push(...curls);
      afterBash = curls.at(-1);
    } else {
      if (block.language === 'json' && afterBash) {
        if (afterBash.answer.skeleton !== undefined)
          throw new Error(`README line ${block.line}: a json answer after a command that already shows one`);
        afterBash.answer = { ...afterBash.answer, skeleton: block.text };
      }
      afterBash = undefined;
    }
  }
  return examples;
}

/**
 * The `js` blocks of a README.
 * @param markdown - the README text
 */
export function scriptExamples(markdown: string): ScriptExample[] {
  return fencedBlocks(markdown)
    .filter((block) => block.language === 'js')
    .map((block) => ({ section: block.section, line: block.line, code: block.text }));
}
