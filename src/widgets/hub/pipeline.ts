// The hub figure's pipeline panel, read from the view's detail (hub-figure.ts `pipelineOf`): pure
// helpers for the main thread, so the panel and its tests share one reading of the data.
import type { HubView, Pipeline } from '../../sim/figures/hub-figure.ts';

type StageView = Pipeline['stages'][number];

/** The pipeline in the hub figure's view, or null (no write yet). */
export function pipelineOf(view: HubView): Pipeline | null {
  return view.detail?.pipeline ?? null;
}

/** Each stage's name as the chapter's prose says it. */
export const STAGE_LABEL: Record<StageView['stage'], string> = {
  authentication: 'Authentication',
  authorization: 'Authorisation',
  admission: 'Admission',
  validation: 'Validation',
  storage: 'etcd',
};

/** What each stage asks, one line each. */
export const STAGE_QUESTION: Record<StageView['stage'], string> = {
  authentication: 'Who is asking?',
  authorization: 'May they do this? (RBAC)',
  admission: 'Do the admission plugins accept or change it?',
  validation: 'Is the object well formed?',
  storage: 'Stored at a new revision',
};

/** The stage's outcome in words (never colour alone). */
export function stageOutcome(p: Pipeline, s: StageView): string {
  if (s.state === 'not-reached') return 'not reached';
  if (s.state === 'refused') return `refused: ${p.code} ${p.message ?? ''}`.trim();
  if (s.stage === 'authentication') return p.user ? `passed: ${p.user}` : 'passed';
  if (s.stage === 'storage')
    return p.revision !== null ? `revision ${p.revision}${p.key ? `, ${p.key}` : ''}` : 'passed, nothing changed';
  return 'passed';
}

/** Who sent the write, in words: the component and, when known, the user the API server saw. */
export function senderOf(p: Pipeline): string {
  return p.user && p.user !== p.component ? `${p.component} (user ${p.user})` : p.component;
}

/** Whether the write happened in the current step (then the panel lights it), or earlier. */
export function isCurrent(p: Pipeline, view: HubView): boolean {
  return view.records.some(
    (r) => r.seq === p.seq || (r.kind === 'watch' && r.revision !== null && r.revision === p.revision),
  );
}
