/** Shared by the site checks: collect named results, print them, write a JSON report for .ci/run. */
import { mkdirSync, writeFileSync } from 'node:fs';

/** A list of named checks that prints each result and writes reports/<name>.json at the end. */
export function createReport(name) {
  const results = [];
  return {
    check(title, ok, detail = '') {
      results.push({ title, ok, detail });
      console.log(`${ok ? '  ✓' : '  ✗'} ${title}${!ok && detail ? `\n      ${detail}` : ''}`);
    },
    finish() {
      const passed = results.filter((r) => r.ok).length;
      const failed = results.length - passed;
      mkdirSync('reports', { recursive: true });
      writeFileSync(`reports/${name}.json`, JSON.stringify({ passed, failed, results }, null, 2));
      console.log(`${name}: ${passed} passed, ${failed} failed`);
      process.exitCode = failed > 0 ? 1 : 0;
    },
  };
}
