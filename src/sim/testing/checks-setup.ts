// Vitest setup: every cluster a test makes decodes and validates what it is sent, as a real API
// server does (the request checks are a part the figures' worker loads only with kubectl or a figure
// that needs them; request-checks-part.test.ts compares each figure with and without them).
import { setDefaultRequestChecks } from '../apiserver/options.ts';
import { REQUEST_CHECKS } from '../apiserver/request-checks.ts';

setDefaultRequestChecks(REQUEST_CHECKS);
