import { expect } from 'chai';
import { nativeRedeclaration } from '../../../../../shared/mthds/rules/declarations/native-redeclaration.js';
import { bundle, runRule } from '../harness.js';

describe('S2-native-redeclaration', () => {
  describe('when a bundle declares a native code', () => {
    it('should report it with the strip fix', () => {
      expect(runRule(nativeRedeclaration, bundle('docs', '[concept.Text]\ndescription = "My text"'))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Concept 'Text' redeclares the native concept native.Text: remove [concept.Text] and use 'Text' directly.",
          error_type: 'native_concept_redeclaration',
          source: 'bundle-1.mthds',
          concept_code: 'Text',
          domain_code: 'docs',
          field_path: 'concept.Text',
          suggested_fix: {
            fix_code: 'strip-native-concept-redecl',
            description: 'Remove [concept.Text]: Text is a native concept.',
            safety: 'safe',
            source: 'bundle-1.mthds',
            ops: [{ kind: 'delete_table', table_path: ['concept', 'Text'] }],
          },
        },
      ]);
    });
  });

  describe('when the codes only resemble natives', () => {
    it('should pass', () => {
      expect(
        runRule(nativeRedeclaration, bundle('docs', '[concept]\nTexts = "Texts"\nPdfPage = "A page"')),
      ).to.deep.equal([]);
    });
  });
});
