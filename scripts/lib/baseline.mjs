// The site as an earlier commit built it, for the browser benchmark's side-by-side columns: the commit
// is checked out in a throwaway git worktree (sharing this checkout's node_modules), built once, and
// its dist/ kept in the temp folder by commit, so the next run serves it without building again.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * The commit the benchmark compares with when BENCH_BASELINE_REF is not set: the newest tag when the
 * repository has one (a release), else main as it stood when issue 26's work began (784aa4e, before
 * the link replay fix and the per-figure core).
 */
export const DEFAULT_BASELINE = '784aa4e';

const git = (args, cwd = process.cwd()) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** The repository's newest tag reachable from HEAD, or null when it has none. */
function newestTag() {
  try {
    return git(['describe', '--tags', '--abbrev=0']) || null;
  } catch {
    return null;
  }
}

/** The ref to compare with: BENCH_BASELINE_REF, else the newest tag, else DEFAULT_BASELINE. */
export function baselineRef(env = process.env, tag = newestTag) {
  return env.BENCH_BASELINE_REF || tag() || DEFAULT_BASELINE;
}

/** The built site of `ref` (a folder with its index.html), building it first if no earlier run has. */
export function baselineDist(ref, log = console.log) {
  const sha = git(['rev-parse', '--verify', `${ref}^{commit}`]);
  const home = join(tmpdir(), 'desired-state-bench', `baseline-${sha.slice(0, 12)}`);
  const dist = join(home, 'dist');
  if (existsSync(join(dist, 'index.html'))) return { sha, dist, built: false };
  const src = join(home, 'src');
  rmSync(home, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  log(`  building ${ref} (${sha.slice(0, 12)}) into ${dist} (once; later runs reuse it)`);
  git(['worktree', 'add', '--detach', src, sha]);
  try {
    // The dependencies the build needs are the same packages; sharing them saves an install.
    symlinkSync(resolve('node_modules'), join(src, 'node_modules'), 'dir');
    execFileSync('npm', ['run', 'build'], { cwd: src, stdio: ['ignore', 'ignore', 'inherit'] });
    renameSync(join(src, 'dist'), dist);
  } finally {
    git(['worktree', 'remove', '--force', src]);
  }
  return { sha, dist, built: true };
}
