/**
 * Storage references (docs/uploads.md#storage-references): both spellings parse to the key they name; no spelling
 * names a key outside its scope, or a leaf that is never served.
 */
import { expect } from 'chai';
import { InvalidStorageUriError } from '../../../shared/errors/index.js';
import { isStorageReference, parseStorageUri, storageUri } from '../../../shared/storage/index.js';
import { EVIL_NAMES, EVIL_SCOPES } from '../../helpers/storage-paths.js';

describe('storage references', () => {
  it('should parse both spellings to the key they name, and write the new one back', () => {
    const key = { scope: 'org_1/team', leaf: 'uploads', name: '0f2c-cv.pdf' };
    expect(parseStorageUri('pipelex-storage://org_1/team/uploads/0f2c-cv.pdf')).to.deep.equal(key);
    expect(parseStorageUri('mthds-storage:org_1/team/uploads/0f2c-cv.pdf')).to.deep.equal(key);
    expect(storageUri({ scope: 'acme', leaf: 'generated', name: 'a.svg' })).to.equal(
      'pipelex-storage://acme/generated/a.svg',
    );
    expect(isStorageReference('pipelex-storage://x')).to.equal(true);
    expect(isStorageReference('https://example.com/pipelex-storage://x')).to.equal(false);
  });

  it('should refuse every scope and name that could leave its prefix, and the leaves never served', () => {
    const refused = [
      ...EVIL_SCOPES.map((scope) => `pipelex-storage://${scope}/uploads/cv.pdf`),
      ...EVIL_NAMES.map((name) => `pipelex-storage://acme/uploads/${name}`),
      'pipelex-storage://acme/../bob/uploads/cv.pdf',
      'pipelex-storage://acme/uploads/cv.pdf?x=1',
      'pipelex-storage://acme/uploads/cv.pdf#top',
      'pipelex-storage://acme/results/run.json',
      'pipelex-storage://acme/payloads/run.json',
      'pipelex-storage://acme/submissions/run.json',
      'pipelex-storage://x/y',
      'pipelex-storage:acme/uploads/cv.pdf',
      's3://bucket/acme/uploads/cv.pdf',
    ];
    for (const reference of refused) {
      const error = (() => {
        try {
          parseStorageUri(reference);
        } catch (thrown) {
          return thrown;
        }
        return undefined;
      })();
      expect(error, reference).to.be.instanceOf(InvalidStorageUriError);
    }
  });
});
