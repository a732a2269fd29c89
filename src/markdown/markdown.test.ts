import { describe, expect, it } from 'vitest';
import { lines } from './code-blocks.mjs';
import { shouldStack } from './tables.mjs';
import { readingMinutes } from '../components/reading-time';

describe('code blocks', () => {
  it('turns the "$ " lines of a terminal session into commands and leaves the output as text', () => {
    const out = lines('$ kubectl get nodes\nNAME  STATUS\nnode-1  Ready', (l: string) =>
      l.startsWith('$ ') ? l.slice(2) : null,
    );
    expect(out).toEqual([
      {
        type: 'element',
        tagName: 'span',
        properties: { className: ['cmd'] },
        children: [{ type: 'text', value: 'kubectl get nodes' }],
      },
      { type: 'text', value: '\n' },
      { type: 'text', value: 'NAME  STATUS' },
      { type: 'text', value: '\n' },
      { type: 'text', value: 'node-1  Ready' },
    ]);
  });
  it('keeps shell comments out of the commands', () => {
    const out = lines('# make three\nkubectl scale deployment web --replicas=3', (l: string) => l);
    expect(out.map((n: { properties?: { className: string[] } }) => n.properties?.className?.[0])).toEqual([
      'cmt',
      undefined,
      'cmd',
    ]);
  });
});

describe('tables', () => {
  it('stacks wordy tables of three or more columns and every table of five, not short numeric ones', () => {
    expect(
      shouldStack(
        ['members', 'majority', 'failures tolerated'],
        [
          ['1', '1', '0'],
          ['3', '2', '1'],
        ],
      ),
    ).toBe(false);
    expect(
      shouldStack(
        ['Who', 'Watches', 'Writes'],
        [['ReplicaSet controller', 'ReplicaSets, Pods', 'three Pods with no node; later the status']],
      ),
    ).toBe(true);
    expect(shouldStack(['a', 'b', 'c', 'd', 'e'], [['1', '2', '3', '4', '5']])).toBe(true);
    expect(
      shouldStack(
        ['What is down', 'What you see'],
        [['scheduler only', 'kubectl works; new pods stay Pending with no event at all']],
      ),
    ).toBe(false);
  });
});

describe('reading time', () => {
  it('counts prose at 230 words a minute and leaves imports and component tags out', () => {
    const prose = Array.from({ length: 460 }, () => 'word').join(' ');
    expect(readingMinutes(`import X from './x';\n\n<Figure id="a" caption="b">\n\n${prose}\n\n</Figure>`)).toBe(2);
  });
});
