import { describe, expect, it } from 'vitest';
import { headingsOf, splitFrontmatter } from './site-content.ts';

describe('chapters read from their source', () => {
  it('slugs headings as github-slugger does, numbering repeats, skipping fenced code', () => {
    const body = [
      '# Title',
      'text',
      '## What a Pod is',
      '```yaml',
      '## not a heading',
      '```',
      "### The kubelet's loop",
      '## What a Pod is',
      '~~~',
      '# no',
      '~~~',
    ].join('\n');
    expect(headingsOf(body)).toEqual([
      { depth: 1, slug: 'title', text: 'Title' },
      { depth: 2, slug: 'what-a-pod-is', text: 'What a Pod is' },
      { depth: 3, slug: 'the-kubelets-loop', text: 'The kubelet\u2019s loop' },
      { depth: 2, slug: 'what-a-pod-is-1', text: 'What a Pod is' },
    ]);
  });

  it('renders straight quotes as typographic ones, as the chapter page shows them', () => {
    expect(headingsOf("## The pod's \"resolv.conf\" and 'ndots'")[0].text).toBe(
      'The pod\u2019s \u201cresolv.conf\u201d and \u2018ndots\u2019',
    );
  });

  it('splits front matter from the body', () => {
    expect(splitFrontmatter('---\ntitle: "A"\norder: 2\n---\n## B\n')).toEqual({
      data: { title: 'A', order: 2 },
      body: '## B\n',
    });
    expect(splitFrontmatter('## no front matter')).toEqual({ data: {}, body: '## no front matter' });
  });
});
