/**
 * A run's output rendered for people: a text as Markdown, a structure as a table of its fields, a list of flat
 * structures as one table, an image inline and a document as a link. A storage reference (`pipelex-storage://…`,
 * which a browser cannot open) is resolved to a signed link first (`POST /v1/resolve-storage-url`,
 * docs/uploads.md#resolving-references); an image is drawn inline only from this origin (the page's policy), else
 * linked.
 */
import MarkdownIt from 'markdown-it';
import { api } from '../api';
import { useLoad } from '../use-load';

/** Markdown without raw HTML (escaped) and with markdown-it's link check (no `javascript:` and the like). */
const markdown = new MarkdownIt({ html: false, linkify: true });

/** A text, read as Markdown: LLM answers are mostly written in it, and plain text renders as paragraphs. */
function Prose({ text }: { text: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: markdown-it escapes raw HTML (html: false) and refuses unsafe links
  return <div className="output-text markdown" dangerouslySetInnerHTML={{ __html: markdown.render(text) }} />;
}

type Json = null | boolean | number | string | Json[] | { [member: string]: Json };

const isObject = (value: unknown): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const openable = (url: string) => /^(https?:|data:image\/|\/)/.test(url);
const reference = (url: string) => /^(pipelex-storage:\/\/|mthds-storage:)/.test(url);
const sameOrigin = (url: string) =>
  url.startsWith('data:image/') || new URL(url, location.href).origin === location.origin;
const flat = (value: unknown) =>
  isObject(value) && Object.values(value).every((member) => !isObject(member) && !Array.isArray(member));

function Media({ value }: { value: Record<string, Json> }) {
  const given = String(value['url']);
  const resolved = useLoad(
    () =>
      reference(given)
        ? api<{ url: string }>('/v1/resolve-storage-url', { method: 'POST', body: { uri: given } }).then(
            (answer) => answer.url,
          )
        : Promise.resolve(given),
    [given],
  );
  const url = resolved.data ?? given;
  const name = typeof value['filename'] === 'string' ? value['filename'] : given;
  const image = typeof value['mime_type'] === 'string' && value['mime_type'].startsWith('image/');
  if (url.startsWith('data:') && !image)
    return <span>{name === given ? 'inline document' : `${name} (inline document)`}</span>;
  if (!openable(url)) return <code>{given}</code>;
  if (image && sameOrigin(url))
    return (
      <img src={url} alt={typeof value['caption'] === 'string' ? value['caption'] : name} className="output-image" />
    );
  return (
    <a href={url} target="_blank" rel="noreferrer">
      {name}
    </a>
  );
}

/** One value of the output. */
export function OutputView({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <em className="muted">none</em>;
  if (typeof value === 'string') return <Prose text={value} />;
  if (typeof value !== 'object') return <span>{String(value)}</span>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <em className="muted">empty list</em>;
    if (value.every(flat)) {
      const columns = [...new Set(value.flatMap((item) => Object.keys(item as object)))];
      return (
        <table>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {value.map((item, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the rows of an output have no identity but their place
              <tr key={index}>
                {columns.map((column) => (
                  <td key={column}>
                    <OutputView value={(item as Record<string, unknown>)[column]} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      );
    }
    return (
      <ol className="output-list">
        {value.map((item, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the items of an output have no identity but their place
          <li key={index}>
            <OutputView value={item} />
          </li>
        ))}
      </ol>
    );
  }
  const object = value as Record<string, Json>;
  const keys = Object.keys(object);
  if (keys.length === 1 && typeof object['text'] === 'string') return <Prose text={object['text']} />;
  if (keys.length === 1 && Array.isArray(object['items'])) return <OutputView value={object['items']} />;
  if (typeof object['url'] === 'string') return <Media value={object} />;
  return (
    <table className="fields">
      <tbody>
        {keys.map((key) => (
          <tr key={key}>
            <th scope="row">{key}</th>
            <td>
              <OutputView value={object[key]} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
