// A scenario is a chapter's story as data (learnGitBranching style): the steps a reader types
// (`kubectl …` and `sim …` lines, run by kubectl/script.ts runScript) and the cluster as kubectl
// prints it at the end, written from what Kubernetes would show and checked against the model.
import type { ClusterOptions } from '../cluster-types.ts';

/** One story, its steps and the text the cluster must print at the end. */
export interface Scenario {
  /** The chapter (content/<chapter>.mdx) the story belongs to. */
  chapter: string;
  /** What the story shows, in one line. */
  title: string;
  /** How the cluster is assembled (default: three workers, seed 1). */
  options?: ClusterOptions;
  /** Script lines, in order. */
  steps: string[];
  /** Step commands that fail on purpose (refused connection, etcd full …). */
  failing?: string[];
  /** Commands run after the steps, with exactly what each prints on stdout (and stderr, default empty). */
  expect: [command: string, stdout: string, stderr?: string][];
  /**
   * Set when the model still differs from Kubernetes here: the runner expects the check to fail
   * (test.fails), so fixing the model turns it red and the mark is removed.
   */
  knownBug?: string;
}

/** Lines of a table, joined with newlines and a final newline, so expectations read like a terminal. */
export function lines(...ls: string[]): string {
  return ls.map((l) => l + '\n').join('');
}
