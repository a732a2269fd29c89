import { configDefaults, defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// Two projects: the core and scripts run as plain Node tests; the widgets' tests compile .svelte
// files (server-rendered with svelte/server), so only they load the Svelte plugin.
export default defineConfig({
  test: {
    setupFiles: ['./src/test/fast-check-seed.ts'],
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
    projects: [
      {
        extends: true,
        test: {
          name: 'core',
          include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'src/widgets/**'],
          environment: 'node',
        },
      },
      {
        extends: true,
        plugins: [svelte({ configFile: false })],
        test: {
          name: 'widgets',
          include: ['src/widgets/**/*.test.ts'],
          environment: 'node',
        },
      },
    ],
  },
});
