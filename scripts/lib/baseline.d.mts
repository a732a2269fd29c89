/** The commit compared with when no ref is set and the repository has no tag. */
export declare const DEFAULT_BASELINE: string;
/** The ref to compare with: BENCH_BASELINE_REF, else the newest tag, else DEFAULT_BASELINE. */
export function baselineRef(env?: Record<string, string | undefined>, tag?: () => string | null): string;
/** The built site of `ref`, building it first if no earlier run has. */
export function baselineDist(ref: string, log?: (m: string) => void): { sha: string; dist: string; built: boolean };
