// Vitest setup: every cluster a test makes validates what it is sent, as a real API server does
// (the built-in validation is a part the figures' worker loads only with kubectl or a figure that
// needs it; the tests that compare a figure with and without it clear it themselves).
import { setDefaultBuiltinValidation } from '../sim/apiserver/config.ts';
import { validateBuiltin } from '../sim/apiserver/validation.ts';

setDefaultBuiltinValidation(validateBuiltin);
