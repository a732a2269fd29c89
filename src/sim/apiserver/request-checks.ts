// The API server's request checks as one optional part: decoding a body into its Go type
// (decode.ts: a field of the wrong JSON type is a 400) and the built-in validation (validation.ts:
// ValidatePod, ValidateDeployment …), with the impersonation filter (impersonation.ts: no component
// impersonates). What the components write from valid objects passes both
// unchanged, so a figure's cluster runs without them until kubectl loads them (kubectl-extras.ts), a
// link's replay installs them, or the figure declares them because its own actions can be refused
// (FigureDef.checks); figures/request-checks-part.test.ts shows every other figure runs byte for
// byte the same either way. Everything else (tests, scripts) gets them by default (src/sim/testing/checks-setup.ts).
import type { RequestChecks } from './config.ts';
import { decodeBody } from '../api/decode.ts';
import { validateBuiltin } from './validation.ts';
import { impersonate } from './impersonation.ts';

/** The checks (and the impersonation filter, which only requests from the same senders use), as a configuration or a figure installs them. */
export const REQUEST_CHECKS: RequestChecks = { decode: decodeBody, validate: validateBuiltin, impersonate };
