// The service-address widget: the chapter's own example (web's three pods on port 80, the Service
// web, the pod client) gives the ClusterIP and pod names the chapter prints; a deleted pod's
// replacement answers at a new IP behind the same ClusterIP once the EndpointSlice and node-3's
// rules have it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileFigure } from './compile.ts';
import { FigureHost } from './host.ts';
import type { FigureView } from './protocol.ts';
import { expectStoryReplays, expectWellFormedStory, itStepsAsAWidget } from './replay-check.ts';
import { type AddressDetail, serviceAddressWidget } from './service-address-widget.ts';

const compiled = compileFigure(serviceAddressWidget);
const at = (step: number): FigureView =>
  new FigureHost(serviceAddressWidget, compiled.story).handle({ op: 'seek', step });
const addressOf = (v: FigureView): AddressDetail => v.detail!.address as unknown as AddressDetail;
const chapter = readFileSync(new URL('../../../content/networking.mdx', import.meta.url), 'utf8');

describe('the service-address widget', () => {
  it('has a well-formed story that replays to the same worlds, frames and words', () => {
    expectWellFormedStory(compiled, 2);
    expectStoryReplays(serviceAddressWidget, compiled);
  });
  itStepsAsAWidget(serviceAddressWidget, () => compiled);

  it("opens on the chapter's example: its ClusterIP, its three pods and their IPs, a third of client's connections each", () => {
    expect(compiled.first.step).toBe(compiled.story.opening);
    const a = addressOf(compiled.first);
    expect(a).toMatchObject({ clusterIP: '10.109.48.121', selector: 'app=web', node: 'node-3' });
    expect(a.endpoints.map((e) => [e.pod, e.ip, e.node, e.ready])).toEqual([
      ['web-6c455b6594-2pdpp', '10.244.2.3', 'node-2', true],
      ['web-6c455b6594-ss969', '10.244.3.3', 'node-3', true],
      ['web-6c455b6594-lsm28', '10.244.1.3', 'node-1', true],
    ]);
    expect(a.shares.map((s) => s.ip).sort()).toEqual(['10.244.1.3', '10.244.2.3', '10.244.3.3']);
    expect(a.shares.reduce((x, s) => x + s.share, 0)).toBeCloseTo(1, 9);
    expect(a.connect).toMatchObject({ ok: true });
    expect(a.endpoints.map((e) => `${e.ip}:80`)).toContain(a.connect!.endpoint);
  });

  it("answers from the replacement at a new IP behind the same ClusterIP once node-3's rules have it", () => {
    const a = addressOf(at(compiled.story.end));
    expect(a.clusterIP).toBe('10.109.48.121');
    expect(a.endpoints.map((e) => e.pod)).not.toContain('web-6c455b6594-lsm28');
    const fresh = a.endpoints.find((e) => e.node === 'node-1')!;
    expect(fresh.ip).not.toBe('10.244.1.3');
    expect(a.shares.map((s) => s.ip)).toContain(fresh.ip);
    expect(compiled.story.beats.at(-1)!.text).toContain(
      `${fresh.pod} replaces web-6c455b6594-lsm28 with a new IP, ${fresh.ip} (was 10.244.1.3)`,
    );
  });

  it('sits in its chapter after the paragraph that quotes its ClusterIP and pods', () => {
    const a = addressOf(compiled.first);
    const before = chapter.slice(0, chapter.indexOf('<InlineWidget id="service-address" />'));
    expect(before).toContain(`The API server picked \`${a.clusterIP}\``);
    for (const e of a.endpoints) expect(before).toContain(`${e.pod}   1/1     Running   0          10s   ${e.ip}`);
  });
});
