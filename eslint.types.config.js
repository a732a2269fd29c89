// The type-aware lint (`npm run lint:types`): three rules of typescript-eslint that need the type
// checker, over the core (src/sim, its tests included). A config of its own, so that `npm run lint`
// stays fast: this one has TypeScript's project service build each file's program from its nearest
// tsconfig (src/sim's for the core, the root's for the tests, which cost most of its time).
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    files: ['src/sim/**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    // The disable comments name the other config's rules, which are off here: they are not unused.
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    rules: {
      // A `default:` is a deliberate catch-all, as in the Go switches the core ports: only a switch
      // over a union without one must name every member (so a new member fails here).
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // An assertion the checker already knows is noise, and hides the ones that matter.
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
    },
  },
  {
    // Objects are typed (kubernetes-types where the kind is known, api/unstructured.ts's Unstructured
    // and its nested* accessors where not): no read of a field of an `any` in the core. Tests may still
    // poke at shapes they build by hand.
    files: ['src/sim/**/*.ts'],
    ignores: ['src/sim/**/*.test.ts', 'src/sim/**/*.test-d.ts', 'src/sim/testing/**'],
    rules: { '@typescript-eslint/no-unsafe-member-access': 'error' },
  },
  {
    // xstate's setup() reads the machine's input type from `input: {} as PodMachineInput`, which
    // the rule takes for an assertion its receiver (a type parameter being inferred) does not need.
    files: ['src/sim/kubelet/pod-machine.ts'],
    rules: { '@typescript-eslint/no-unnecessary-type-assertion': 'off' },
  },
);
