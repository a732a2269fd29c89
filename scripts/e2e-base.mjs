// The site published under a base path, tested as published: builds it with SITE_BASE=/desired-state
// into dist-base/ (its links, _headers paths and embed snippets then start with the base) and runs
// the e2e tests tagged @published against it, served with its _headers (scripts/serve.mjs), on a
// port of its own. Its report is reports/playwright-base.json (.ci/run sums it with the main run's).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';

const env = {
  ...process.env,
  SITE_BASE: '/desired-state',
  DIST_DIR: 'dist-base',
  PORT: '4331',
  E2E_REPORT: 'reports/playwright-base.json',
};
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
rmSync('dist-base', { recursive: true, force: true });
run(process.execPath, ['node_modules/astro/bin/astro.mjs', 'build', '--silent']);
run(process.execPath, [
  'node_modules/pagefind/lib/runner/bin.cjs',
  '--site',
  'dist-base',
  '--output-subdir',
  'pagefind',
  '--silent',
]);
run(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', '--grep', '@published']);
