/** The catalog change signal (docs/mcp.md#tool-list-changes). */
export {
  type CatalogChangeListener,
  type CatalogChanges,
  localCatalogChanges,
  type RedisCatalogChangesOptions,
  redisCatalogChanges,
} from './catalog-changes.js';
