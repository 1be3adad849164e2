/**
 * The older `POST /validate` as a diagnostics thread answers it (spec §4.12; docs/api.md#older-unversioned-routes): one
 * bundle as `mthds_content` (required, at most `MAX_MTHDS_FILE_KIB`); unknown members are ignored. A valid bundle is
 * answered in the older success body, an invalid one with the 422 `ValidateBundleError` problem of the run routes.
 */
import { z } from 'zod';
import { legacyValidateOperation } from '../offload/validate-operation.js';
import { parseRequest } from '../request-schema.js';
import { answer, type DiagnosticDefinition, perFileLimit } from './diagnostic-route.js';
import { mthdsContent } from './mthds-content.js';

const legacyValidateSchema = perFileLimit((maxMthdsFileKib) =>
  z
    .object({ mthds_content: mthdsContent(maxMthdsFileKib).meta({ description: 'One bundle (`.mthds` text).' }) })
    .meta({ description: 'The older validation request (spec §4.12).' }),
);

/** `POST /validate` (spec §4.12): the verdict of `/v1/validate` on one bundle, in the older body. */
export const legacyValidateRoute: DiagnosticDefinition = {
  schema: legacyValidateSchema,
  handle: async (value, request) => {
    const body = parseRequest(legacyValidateSchema(request.limits.maxMthdsFileKib), value);
    return answer(legacyValidateOperation(body.mthds_content, request.models));
  },
};
