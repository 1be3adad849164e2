/**
 * The media of a prompt (docs/runtime.md#images-and-documents): Image and Document contents referenced in a PipeLLM's
 * templates are
 * registered in order of first use (the system prompt first), replaced in the text by `[Image N]` / `[Document N]`
 * placeholders, and sent to the model as attachments. Only referenced media are sent; the same URL gets one number.
 */

/** One attachment of a prompt. */
export interface PromptAttachment {
  kind: 'image' | 'document';
  url: string;
  mime_type?: string;
}

/** The registry of one prompt. */
export class PromptMedia {
  private readonly attachments: PromptAttachment[];

  /**
   * @param registered - attachments registered by earlier renders of the same prompt (copied)
   */
  constructor(registered: readonly PromptAttachment[] = []) {
    this.attachments = registered.map((attachment) => ({ ...attachment }));
  }

  /**
   * The placeholder of a medium, registering it on first use.
   * @param kind - image or document
   * @param item - the Image or Document content (`url`, optional `mime_type`)
   */
  placeholder(kind: PromptAttachment['kind'], item: Record<string, unknown>): string {
    const url = String(item['url'] ?? '');
    let index = this.attachments.findIndex((attachment) => attachment.kind === kind && attachment.url === url);
    if (index < 0) {
      const attachment: PromptAttachment = { kind, url };
      if (typeof item['mime_type'] === 'string') attachment.mime_type = item['mime_type'];
      this.attachments.push(attachment);
      index = this.attachments.length - 1;
    }
    const number = this.attachments.slice(0, index + 1).filter((attachment) => attachment.kind === kind).length;
    return kind === 'image' ? `[Image ${number}]` : `[Document ${number}]`;
  }

  /** Every registered attachment, in order of registration. */
  all(): PromptAttachment[] {
    return [...this.attachments];
  }
}
