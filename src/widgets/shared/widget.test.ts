import { describe, expect, it } from 'vitest';
import type { FigureView } from '../../sim/figures/protocol.ts';
import { widgetAction, widgetCaption } from './widget.ts';

const view = (over: Partial<FigureView>): FigureView => ({
  figure: 'w',
  step: 3,
  last: 9,
  t: 0,
  t0: 0,
  frame: {} as FigureView['frame'],
  records: [],
  log: [],
  beat: null,
  sentence: 'The scheduler binds a pod.',
  skipped: null,
  rest: null,
  story: { beats: 2, beatIndex: 0, diverged: false, ended: false },
  demos: [],
  demoRunning: null,
  detail: null,
  ...over,
});

describe('widgetAction', () => {
  it("reads a listed demo's label and whether it can be pressed", () => {
    const v = view({
      demos: [
        {
          id: 'delete-pod',
          label: 'Delete a pod',
          command: 'kubectl delete pod x',
          enabled: false,
          why: 'No pod of web is running to delete.',
        },
      ],
    });
    expect(widgetAction(v, 'delete-pod')).toEqual({
      label: 'Delete a pod',
      enabled: false,
      why: 'No pod of web is running to delete.',
    });
  });
  it('offers a composed demo only while no demo is under way', () => {
    expect(widgetAction(view({}), 'rollout:4:1:1', 'Roll out')).toEqual({
      label: 'Roll out',
      enabled: true,
      why: null,
    });
    expect(widgetAction(view({ demoRunning: 'rollout:3:25%:25%' }), 'rollout:4:1:1', 'Roll out').enabled).toBe(false);
  });
});

describe('widgetCaption', () => {
  it("says the beat at a beat, else the step's sentence", () => {
    expect(widgetCaption(view({ beat: 'web runs 3 pods.' }))).toBe('web runs 3 pods.');
    expect(widgetCaption(view({}))).toBe('The scheduler binds a pod.');
  });
  it('says that the reader left the story', () => {
    expect(widgetCaption(view({ story: { beats: 2, beatIndex: 0, diverged: true, ended: false } }))).toMatch(
      /^You changed the cluster mid-story\. The scheduler/,
    );
  });
});
