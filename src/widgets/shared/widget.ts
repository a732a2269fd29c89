// Small pure helpers of the inline widgets' shell (WidgetShell.svelte): its caption and its one action.
import type { FigureView } from '../../sim/figures/protocol.ts';

/** What a widget's picture may do beside showing the view: press a demo (a composed one too), once live. */
export interface WidgetControls {
  demo(id: string): void;
  readonly live: boolean;
}

/** The widget's one action as its button shows it now: the demo's label and whether it can be pressed (and why not). */
export function widgetAction(
  view: FigureView,
  demo: string,
  fallbackLabel = 'Act',
): { label: string; enabled: boolean; why: string | null } {
  const d = view.demos.find((x) => x.id === demo);
  // A composed demo is not listed: it can be pressed whenever no demo of the widget is under way.
  if (!d)
    return {
      label: fallbackLabel,
      enabled: view.demoRunning === null,
      why: view.demoRunning === null ? null : 'The rollout under way has not finished.',
    };
  return { label: d.label, enabled: d.enabled, why: d.why };
}

/** The caption: the beat when the step has one, else the step's sentence; a change of the reader's that left the story says so first. */
export function widgetCaption(view: FigureView): string {
  const said = view.beat ?? view.sentence;
  return view.story.diverged && view.beat === null ? `You changed the cluster mid-story. ${said}` : said;
}
