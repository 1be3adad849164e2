/**
 * A method of this project's own that reads media and makes media, for the storage tests: it describes a photo with a
 * document beside it (PipeLLM), then draws the description (PipeImgGen). Its inputs are `data:` URLs of the sizes a
 * test asks for.
 */

/** The bundle: main pipe `redraw`, inputs `photo` (Image) and `doc` (Document), output an Image. */
const REDRAW_BUNDLE = `domain = "storage_demo"
main_pipe = "redraw"

[pipe.redraw]
type = "PipeSequence"
description = "Describe a photo with a document beside it, then draw the description"
inputs = { photo = "Image", doc = "Document" }
output = "Image"
steps = [
  { pipe = "describe", result = "description" },
  { pipe = "draw", result = "drawing" },
]

[pipe.describe]
type = "PipeLLM"
description = "Describe the photo"
inputs = { photo = "Image", doc = "Document" }
output = "Text"
prompt = "Describe this photo: $photo, using the document $doc"

[pipe.draw]
type = "PipeImgGen"
description = "Draw a picture"
inputs = { description = "Text" }
output = "Image"
prompt = "A watercolor of $description"
model = "$synthesize-photo"
`;

/**
 * The request body of a run of {@link REDRAW_BUNDLE}.
 * @param options - the storage scope, and the sizes in bytes of the PNG photo and the PDF document (filled with a
 *   byte that makes each pair of inputs distinct)
 */
export function redrawRequest(options: { scope?: string; photoBytes: number; docBytes: number; fill?: number }) {
  const fill = options.fill ?? 7;
  return {
    mthds_contents: [REDRAW_BUNDLE],
    ...(options.scope ? { storage_scope: options.scope } : {}),
    inputs: {
      photo: {
        concept: 'Image',
        content: { url: `data:image/png;base64,${Buffer.alloc(options.photoBytes, fill).toString('base64')}` },
      },
      doc: {
        concept: 'Document',
        content: {
          url: `data:application/pdf;base64,${Buffer.alloc(options.docBytes, fill + 1).toString('base64')}`,
          mime_type: 'application/pdf',
        },
      },
    },
  };
}
