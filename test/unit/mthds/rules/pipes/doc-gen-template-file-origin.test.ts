import { expect } from 'chai';
import { buildLibrary } from '../../../../../shared/mthds/library/build-library.js';
import { docGenTemplateFileOrigin } from '../../../../../shared/mthds/rules/pipes/doc-gen-template-file-origin.js';
import { loadedBundles } from '../harness.js';
import { docGenBundle, PRINT_ITEM } from './doc-gen-fixtures.js';

function run(bundleFiles: readonly string[] | null | undefined, path = 'templates/invoice.docx') {
  const bundles = loadedBundles(docGenBundle({ format: '"docx"', template_file: `"${path}"` }));
  return docGenTemplateFileOrigin.check({
    bundles,
    library: buildLibrary(bundles),
    mode: 'compat',
    ...(bundleFiles === undefined ? {} : { bundleFiles }),
  });
}

describe('S4-doc-gen-template-file-origin', () => {
  describe('when the bundle was sent as text', () => {
    it('should refuse the template_file', () => {
      expect(run(null)).to.deep.equal([
        {
          category: 'blueprint_validation',
          error_type: 'invalid_pipe_field',
          message:
            "Pipe 'print': template_file 'templates/invoice.docx' cannot be read: the bundle came without files beside its .mthds (sent as text in mthds_contents, which has no directory, or a package holding no other file); send the bundle with its files (bundle_b64, files) or as a method_ref whose package holds the file, or use a template.",
          ...PRINT_ITEM,
          field_path: 'pipe.print.template_file',
          field_name: 'template_file',
        },
      ]);
    });
  });

  describe('when the bundle came with files that lack it', () => {
    it('should name the files it has', () => {
      expect(run(['templates/other.docx']).map((item) => item.message)).to.deep.equal([
        "Pipe 'print': template_file 'templates/invoice.docx' names no file of the bundle (its files: templates/other.docx).",
      ]);
    });
  });

  describe('when the file is there, or nobody says where the bundle came from', () => {
    it('should pass', () => {
      expect(run(['templates/invoice.docx'])).to.deep.equal([]);
      expect(run(['templates/invoice.docx'], './templates//invoice.docx')).to.deep.equal([]);
      expect(run(undefined)).to.deep.equal([]);
    });
  });
});
