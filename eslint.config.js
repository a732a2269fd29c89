// ESLint over src, scripts and e2e (`npm run lint`): the recommended rules of ESLint, typescript-eslint
// (the set without type information, to stay fast; `npm run check` does the type checking) and
// eslint-plugin-svelte. Each change to a recommended rule below says why.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'dist-base/', 'node_modules/', 'reports/', 'test-results/', '.astro/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  svelte.configs.recommended,
  // A disable comment no rule needs is an error: it would hide the next real problem on its line.
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  {
    // The code runs in three places: Node (scripts, tests, the build), the page and the worker.
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      // A name that is unused on purpose starts with "_" (a parameter an interface requires, a
      // for-in that only counts keys); a rest sibling is how a member is dropped from a copy.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'] } },
  },
  {
    // Tests read arbitrary JSON back from the API server and the figures and poke at it; the
    // assertion that follows is the check, so a type for each response would only repeat it.
    files: ['**/*.test.ts', '**/*.spec.ts'],
    // And a test's regular expression spells kubectl's columns out space for space, as they print.
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'no-regex-spaces': 'off' },
  },
  {
    // Module-level state sits outside WorldState: snapshot/restore and the determinism checks cannot
    // see it. So the simulation keeps none in its model files: a memo lives in a `<module>-cache.ts`
    // beside its module (or util/memo.ts), where it is easy to find and has its differential test.
    files: ['src/sim/**/*.ts'],
    ignores: ['src/sim/**/*-cache.ts', 'src/sim/**/*.test.ts', 'src/sim/testing/**'],
    rules: { 'no-restricted-syntax': ['error', ...moduleStateRules(), ...componentCastRules()] },
  },
  {
    // A figure's core returns its detail typed (FigureDef<D>) and reads stored objects through
    // storeList's typed overload (or view/stored.ts's Stored<R>): a double cast would hide a detail or
    // an object changing under it. (Its own entry, as a later no-restricted-syntax replaces the one
    // above for these files.)
    files: ['src/sim/figures/**/*.ts'],
    ignores: ['src/sim/**/*-cache.ts', 'src/sim/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...moduleStateRules(),
        ...componentCastRules(),
        ...doubleCastRules(
          'No `as unknown as` in a figure: type its detail (FigureDef<D>) and read the store with storeList or Stored<R>.',
        ),
      ],
    },
  },
  {
    // A widget reads its figure's view through the view's own type (FigureView<D>): a double cast
    // would hide the figure's detail changing under it.
    files: ['src/widgets/**/*.ts', 'src/widgets/**/*.svelte'],
    ignores: ['src/widgets/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...doubleCastRules('No `as unknown as` in a widget: read the view through its figure type (FigureView<D>).'),
      ],
    },
  },
);

/** no-restricted-syntax entries for a double cast through unknown (`x as unknown as T`), refused with `message`. */
function doubleCastRules(message) {
  return [
    {
      selector: "TSAsExpression[expression.type='TSAsExpression'][expression.typeAnnotation.type='TSUnknownKeyword']",
      message,
    },
  ];
}

/** no-restricted-syntax entries for casting a component's context to Ctx<unknown> (client-go's helpers take a ClientCtx). */
function componentCastRules() {
  return [
    {
      selector: "TSAsExpression > TSTypeReference.typeAnnotation[typeName.name='Ctx'] TSUnknownKeyword",
      message: "No `as Ctx<unknown>`: client-go's helpers take a ClientCtx, which every Ctx<S> is without a cast.",
    },
  ];
}

/** no-restricted-syntax entries for a top-level `let` and a top-level `new Map`/`WeakMap`/`Set`/`WeakSet`. */
function moduleStateRules() {
  const why = 'module-level state sits outside WorldState (snapshot/restore and determinism cannot see it)';
  const collection = 'VariableDeclarator > NewExpression.init[callee.name=/^(Weak)?(Map|Set)$/]';
  return [
    {
      selector: "Program > VariableDeclaration[kind='let']",
      message: `No top-level let in src/sim: ${why}; put a memo in a *-cache.ts.`,
    },
    {
      selector: "Program > ExportNamedDeclaration > VariableDeclaration[kind='let']",
      message: `No top-level let in src/sim: ${why}; put a memo in a *-cache.ts.`,
    },
    {
      selector: `Program > VariableDeclaration > ${collection}`,
      message: `No top-level Map/WeakMap/Set/WeakSet in src/sim: ${why}; put a memo in a *-cache.ts, build a constant table with a function (util/table.ts).`,
    },
    {
      selector: `Program > ExportNamedDeclaration > VariableDeclaration > ${collection}`,
      message: `No top-level Map/WeakMap/Set/WeakSet in src/sim: ${why}; put a memo in a *-cache.ts, build a constant table with a function (util/table.ts).`,
    },
  ];
}
