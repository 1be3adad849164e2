import { openApiDocument } from './api/openapi/openapi-document.ts';
import { MODELS_ROUTE } from './api/routes/models.ts';
import { EXECUTE_ROUTE } from './api/routes/run.ts';
const doc = openApiDocument([MODELS_ROUTE, EXECUTE_ROUTE], { auth: 'none' } as never);
console.log(JSON.stringify(doc.paths['/v1/models'].get.parameters));
console.log(JSON.stringify(doc.components.schemas.RunRequest).length, JSON.stringify(doc.components.schemas.RunRequest.properties.callback_urls));
