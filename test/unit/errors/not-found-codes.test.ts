/**
 * The `code` rule of 404s (docs/api.md#unknown-routes-and-methods): every 404 a served route answers carries a `code`,
 * so clients tell "not found" from "route not served"; only the route-miss `NotFound` goes without.
 */
import { expect } from 'chai';
import { type CatalogEntry, ERROR_CATALOG } from '../../../shared/errors/index.js';

describe('the codes of 404 problems (shared/errors/catalog.ts)', () => {
  it('should give every 404 class a code, except the route-miss NotFound', () => {
    const entries: [string, CatalogEntry][] = Object.entries(ERROR_CATALOG);
    const notFound = entries.filter(([, entry]) => entry.status === 404);
    expect(notFound.filter(([, entry]) => entry.code === undefined).map(([type]) => type)).to.deep.equal(['NotFound']);
    expect(Object.fromEntries(notFound.map(([type, entry]) => [type, entry.code ?? null]))).to.deep.equal({
      NotFound: null,
      ErrorPageNotFoundError: 'error_page_not_found',
      RunNotFoundError: 'run_not_found',
      ApiKeyNotFoundError: 'api_key_not_found',
      OrganizationNotFoundError: 'organization_not_found',
      MethodNotFoundError: 'not_found',
      MethodVersionNotFoundError: 'method_version_not_found',
      StorageObjectNotFoundError: 'storage_object_not_found',
      MethodPackageNotFoundError: 'method_package_not_found',
    });
  });
});
