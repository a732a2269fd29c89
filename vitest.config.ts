import { configDefaults, defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// Two projects: the core and scripts run as plain Node tests; the widgets' tests compile .svelte
// files (server-rendered with svelte/server), so only they load the Svelte plugin.
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one worker on CI's two. Two halve the run.
    maxWorkers: process.env.CI ? 2 : undefined,
    // A test's timeout only catches a hang: speed is measured in npm run bench, never here, and two
    // workers on two loaded cores can make a 2 s test take 10.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    setupFiles: ['./src/test/fast-check-seed.ts', './src/sim/testing/checks-setup.ts'],
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
    projects: [
      {
        extends: true,
        test: {
          name: 'core',
          include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'src/widgets/**'],
          environment: 'node',
          // One module graph per worker, not per file: the core's modules hold no state a test leaves
          // behind (its state is the World's; module-level caches are memos keyed by their input, which
          // caches.test.ts checks, the runs after its bypass included), and
          // spawning a fresh worker for each of ~200 files cost about 100 s of CI's run.
          isolate: false,
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
