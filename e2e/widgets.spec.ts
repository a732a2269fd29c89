// The inline widgets (issue 28): each goes live when scrolled to, steps, does its one action, keeps
// its size (≤ 420 px tall at 1280 px, ≤ 480 px at 360 px) without its controls moving, shows its
// whole picture without scrolling at 1280 and 360 px at every step and after its action, passes axe in
// light and dark (on its embed), and a link to one of its steps reopens it on the same step. The fixtures fail any
// test that logs a console error, a page error or a CSP violation.
import { readdirSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { BASE, expect, sitePages, test } from './fixtures';
import { expectNoAxeViolations } from './figure-helpers';
import { WIDGET_ROWS } from './registry';

/** What each inline widget's action button says and its caption after it, by registry id (a widget without a row here fails). */
const ACTIONS: Record<string, { action: RegExp; said: RegExp }> = {
  'write-watch': {
    action: /^Scale web to 4$/,
    said: /kubectl sends one write: spec\.replicas of web from 3 to 4/,
  },
  conflict: {
    action: /^Both add a replica$/,
    said: /409 Conflict: Operation cannot be fulfilled on deployments\.apps "web": the object has been modified/,
  },
  'watch-resume': {
    action: /^Cut node-1 off$/,
    said: /node-1's network to the API server breaks/,
  },
  'replace-pod': {
    action: /^Delete a pod$/,
    said: /kubectl deletes web-c68c68797-nzjqm/,
  },
  'cascade-delete': {
    action: /^Delete web$/,
    said: /kubectl delete deployment web: with kubectl's default cascade/,
  },
  'level-triggered': {
    action: /^Stop the controller-manager$/,
    said: /kube-controller-manager stops: its watches close/,
  },
  heartbeats: {
    action: /^Power node-2 off$/,
    said: /node-2 loses power, and its kubelet with it, \d+ s after its last renewal/,
  },
  'force-delete': {
    action: /^Force-delete a pod$/,
    said: /kubectl warns that it will not wait for confirmation, then asks the API server to delete web-c68c68797-nzjqm with gracePeriodSeconds 0/,
  },
  'node-lease': {
    action: /^Cut node-2's power$/,
    said: /node-2 loses power, \d+ s after its kubelet last renewed the Lease/,
  },
  'toleration-countdown': {
    action: /^Cut node-2's power$/,
    said: /node-2 loses power with web-c68c68797-nzjqm and web-c68c68797-pjhzg on it/,
  },
  'frozen-endpoints': {
    action: /^Stop the control plane$/,
    said: /The API server, etcd, the scheduler and the controller-manager stop/,
  },
  'kubelet-alone': {
    action: /^Stop the control plane$/,
    said: /node-1's kubelet keeps its pods in memory and its containers running/,
  },
  'restart-leases': {
    action: /^Start the control plane$/,
    said: /etcd, the API server, the scheduler and the controller-manager start again, each a new process/,
  },
  'filter-score': {
    action: /^Cordon node-3, reschedule$/,
    said: /kubectl cordon node-3 sets its spec\.unschedulable to true/,
  },
  'pending-pod': {
    action: /^Delete load-2$/,
    said: /kubectl delete pod load-2: once it is gone/,
  },
  'one-at-a-time': {
    action: /^Scale web to 6$/,
    said: /kubectl scale deployment web --replicas=6: the ReplicaSet controller creates 3 pods/,
  },
  'max-surge': {
    action: /^Roll out these numbers$/,
    said: /web holds your numbers \(3 replicas, maxSurge 25%, maxUnavailable 25%\)/,
  },
  'new-replicaset': {
    action: /^Set image nginx:1\.28$/,
    said: /kubectl set image deployment\/web nginx=nginx:1\.28 changes only spec\.template of web/,
  },
  'rollout-undo': {
    action: /^kubectl rollout undo$/,
    said: /kubectl rollout undo reads ReplicaSet web-c68c68797 \(revision 1\)/,
  },
  'ready-endpoints': {
    action: /^Fail a readiness probe$/,
    said: /sim app web-6fbdc9d7d8-vc5xc unready/,
  },
  'proxy-pick': {
    action: /^Scale web to 4$/,
    said: /kubectl scale deployment web --replicas=4: from 3 to 4/,
  },
  'service-address': {
    action: /^Delete web's pod on node-1$/,
    said: /kubectl delete pod web-6c455b6594-lsm28: the pod at 10\.244\.1\.3 goes away/,
  },
  'dns-lookup': {
    action: /^Recreate the Service web$/,
    said: /kubectl delete service web, then kubectl expose deployment web --port=80/,
  },
  'image-backoff': {
    action: /^Upgrade to nginx:1\.288$/,
    said: /kubectl set image deployment\/web nginx=nginx:1\.288/,
  },
  'chain-stops': {
    action: /^Typo the image tag$/,
    said: /kubectl set image deployment\/web nginx=nginx:1\.288: the upgrade to nginx:1\.28/,
  },
  'crash-loop': {
    action: /^Crash a container$/,
    said: /web-c68c68797-vc5xc's nginx now finds a typo/,
  },
};

/** Every inline widget of the registry, on its chapter, with its expectations. */
const WIDGETS = WIDGET_ROWS.map(({ id, chapter, anchor }) => ({ id, path: `/${chapter}/`, anchor, ...ACTIONS[id] }));

/** The sentence a widget opens on, where it is not web running (the default). */
const OPENS: Record<string, RegExp> = {
  'force-delete': /^343 s after the cut: web-c68c68797-nzjqm and web-c68c68797-pjhzg are Terminating in the API server/,
  heartbeats:
    /^30 s since the kubelets started: Lease renewals node-1 3, node-2 3 and node-3 3; status updates node-1 1/,
  'chain-stops': /^web-6fbdc9d7d8-vc5xc went through all 12 steps in \d+ s: bound to node-1/,
  'restart-leases': /^The control plane has been down for 10 minutes\. /,
  'service-address': /^The Service web has the ClusterIP 10\.109\.48\.121, /,
  'dns-lookup': /^client's resolv\.conf names 10\.96\.0\.10 \(kube-dns\)/,
  'filter-score': /^api-559fb7b69c-pjhzg is bound to node-3\. /,
  'pending-pod': /^report-6d98ddd556-vc5xc is Pending: /,
  'one-at-a-time': /^The scheduler took web's 3 pods one at a time/,
  'rollout-undo': /^web runs 3 pods of nginx:1\.28 from ReplicaSet web-c47498c66 \(revision 2\)/,
  'toleration-countdown': /^web runs 6 pods of ReplicaSet web-c68c68797: /,
};

const SIZES = [
  { width: 1280, height: 900, max: 420 },
  { width: 360, height: 800, max: 480 },
];

async function openWidget(page: Page, id: string, path: string): Promise<Locator> {
  await page.goto(`${BASE}${path}`);
  const w = page.getByTestId(`widget-${id}`);
  await w.scrollIntoViewIfNeeded();
  await expect(w).toHaveAttribute('data-state', /^live /, { timeout: 30_000 });
  return w;
}

const stepOf = async (w: Locator): Promise<number> => Number(await w.getAttribute('data-step'));

/** The widget's picture shows all it has, with no scrolling inside its box (1 px of rounding allowed). */
async function expectPictureFits(w: Locator, when: string): Promise<void> {
  const over = await w
    .getByTestId('widget-picture')
    .evaluate((p) => [p.scrollHeight - p.clientHeight, p.scrollWidth - p.clientWidth]);
  expect(
    Math.max(...over),
    `${when}: px of the picture beyond its box (height ${over[0]}, width ${over[1]}; its box's height is widgets.css's --picture)`,
  ).toBeLessThanOrEqual(1);
}

/** Presses Next event (each press waited for) until `where`'s text matches, at most `max` presses. */
async function nextUntil(
  w: Locator,
  re: RegExp,
  max: number,
  where: Locator = w.getByTestId('widget-caption'),
): Promise<void> {
  const next = w.getByRole('button', { name: 'Next event' });
  for (let i = 0; i < max && !re.test((await where.textContent()) ?? ''); i++) {
    const s = await w.getAttribute('data-step');
    await next.click();
    await expect(w).not.toHaveAttribute('data-step', s!);
  }
}

test('every widget of the registry has its action and caption here, and no other id has', () => {
  expect(Object.keys(ACTIONS).sort()).toEqual(WIDGET_ROWS.map((r) => r.id).sort());
  for (const id of Object.keys(OPENS)) expect(WIDGET_ROWS.map((r) => r.id)).toContain(id);
});

test('the list here is every inline widget the site has, on its page', async ({ request }) => {
  const found = new Set<string>();
  for (const path of await sitePages(request)) {
    const html = await (await request.get(`${BASE}${path}`)).text();
    for (const m of html.matchAll(/data-widget-root="([^"]+)"/g)) found.add(`${m[1]} ${path}`);
  }
  expect([...found].sort()).toEqual(WIDGETS.map((w) => `${w.id} ${w.path}`).sort());
});

test('every chapter has at least three inline widgets, the first within its first two screens at 1280×900', async ({
  page,
}) => {
  const chapters = readdirSync('content')
    .filter((f) => f.endsWith('.mdx'))
    .map((f) => `/${f.slice(0, -4)}/`);
  expect(chapters.length).toBeGreaterThanOrEqual(8);
  await page.setViewportSize({ width: 1280, height: 900 });
  for (const path of chapters) {
    expect(WIDGETS.filter((w) => w.path === path).length, `${path}: inline widgets`).toBeGreaterThanOrEqual(3);
    await page.goto(`${BASE}${path}`);
    const top = await page
      .locator('[data-widget-root]')
      .first()
      .evaluate((e) => e.getBoundingClientRect().top + window.scrollY);
    expect(top, `${path}: the first widget's top, px`).toBeLessThanOrEqual(2 * 900);
  }
});

for (const { id, path, anchor, action, said } of WIDGETS) {
  test.describe(`${id} (${path})`, () => {
    // The clipboard, for "Copy link to this step".
    test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

    test('goes live, steps by keyboard (visible focus, Enter, N), a link to that step reopens it there, back by mouse, never before its opening, and its action works', async ({
      page,
      context,
    }) => {
      test.setTimeout(90_000);
      const w = await openWidget(page, id, path);
      const open = await stepOf(w);
      expect(open).toBeGreaterThan(0);
      const back = w.getByRole('button', { name: 'Back' });
      await expect(back).toBeDisabled();
      // By keyboard first (a mouse press would hide the focus ring): the focused button shows a ring,
      // Enter presses it, and N is the figures' next-event key.
      const next = w.getByRole('button', { name: 'Next event' });
      await next.focus();
      expect(await next.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');
      await page.keyboard.press('Enter');
      await expect.poll(() => stepOf(w)).toBeGreaterThan(open);
      const t = await stepOf(w);
      await page.keyboard.press('n');
      await expect.poll(() => stepOf(w)).toBeGreaterThan(t);
      // A link to this step, opened in a second tab, opens the widget on the same step and sentence.
      const ahead = await stepOf(w);
      const caption = await w.getByTestId('widget-caption').textContent();
      await w.getByRole('button', { name: 'Copy link to this step' }).click();
      await expect(w.getByText('Link copied.')).toBeVisible();
      const url = await page.evaluate(() => navigator.clipboard.readText());
      expect(url).toMatch(new RegExp(`\\?fig=${id}\\.[A-Za-z0-9_-]+#${anchor}$`));
      const again = await context.newPage();
      const w2 = await openWidget(again, id, url.replace(/^https?:\/\/[^/]+/, ''));
      await expect(w2).toHaveAttribute('data-step', String(ahead));
      await expect(w2.getByTestId('widget-caption')).toHaveText(caption!);
      await again.close();
      // Then back by mouse (the size tests press Next by mouse).
      await back.click();
      await expect.poll(() => stepOf(w)).toBeLessThan(ahead);
      await w.getByRole('button', { name: 'Reset' }).click();
      await expect(w).toHaveAttribute('data-step', String(open));
      const act = w.getByRole('button', { name: action });
      await expect(act).toBeEnabled();
      await act.click();
      await expect(w.getByTestId('widget-caption')).toContainText(said);
      await expect.poll(() => stepOf(w)).toBeGreaterThan(open);
    });

    test('at 1280×900 it is at most 420 px tall, at 360×800 at most 480, its controls never move and its picture never scrolls', async ({
      page,
    }) => {
      test.setTimeout(120_000);
      for (const size of SIZES) {
        await page.setViewportSize({ width: size.width, height: size.height });
        const w = await openWidget(page, id, path);
        const box = (await w.boundingBox())!;
        expect(Math.round(box.height), `${size.width} px`).toBeLessThanOrEqual(size.max);
        expect(box.width).toBeLessThanOrEqual(size.width);
        const next = w.getByRole('button', { name: 'Next event' });
        // Next event's place in the widget and the widget's height, in one round trip.
        const where = () =>
          w.evaluate((el) => {
            const a = el.getBoundingClientRect();
            const b = el.querySelector('[data-action="next"]')!.getBoundingClientRect();
            return `${Math.round(b.left - a.left)},${Math.round(b.top - a.top)},${Math.round(a.height)}`;
          });
        const at0 = await where();
        const open = await w.getAttribute('data-step');
        await expectPictureFits(w, `${size.width} px, the opening`);
        for (let i = 0; i < 6 && (await next.isEnabled()); i++) {
          const s = await w.getAttribute('data-step');
          await next.click();
          await expect(w).not.toHaveAttribute('data-step', s!);
          expect(await where(), `${size.width} px`).toBe(at0);
          await expectPictureFits(w, `${size.width} px, step ${await w.getAttribute('data-step')}`);
        }
        // The picture is taken in at a glance at every moment, on a phone as on a desktop: the opening,
        // the steps after it, and after its action (what it shows grows as it steps: a log, a table's rows).
        await w.getByRole('button', { name: 'Reset' }).click();
        await expect(w).toHaveAttribute('data-step', open!);
        await w.getByRole('button', { name: action }).click();
        await expect(w).not.toHaveAttribute('data-step', open!);
        await expectPictureFits(w, `${size.width} px, its action`);
        for (let i = 0; i < 6 && (await next.isEnabled()); i++) {
          const was = await w.getAttribute('data-step');
          await next.click();
          await expect(w).not.toHaveAttribute('data-step', was!);
          await expectPictureFits(w, `${size.width} px, after its action, step ${await w.getAttribute('data-step')}`);
        }
      }
    });

    test('axe finds no violation: light at the opening, dark after its action', async ({ page }) => {
      test.setTimeout(120_000);
      // Both palettes and both states, in two runs, on the widget's embed: the same island and styles
      // in a small page (axe walks the whole document, and a chapter's costs it seconds a run; the
      // chapters themselves are checked in pages.spec).
      await page.emulateMedia({ colorScheme: 'light' });
      const w = await openWidget(page, id, `/embed/${id}/`);
      await expectNoAxeViolations(page, `[data-testid="widget-${id}"]`, 'light at the opening');
      await page.emulateMedia({ colorScheme: 'dark' });
      await w.getByRole('button', { name: action }).click();
      await expect(w.getByTestId('widget-caption')).toContainText(said);
      await expectNoAxeViolations(page, `[data-testid="widget-${id}"]`, 'dark after its action');
    });

    test('without JavaScript it shows its opening frame and one sentence, no controls and no "Live" badge', async ({
      browser,
    }) => {
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${BASE}${path}`);
      const w = page.getByTestId(`widget-${id}`);
      await expect(w.getByTestId('widget-picture')).toBeVisible();
      await expect(w.getByTestId('widget-caption')).toContainText(
        OPENS[id] ?? /^web runs 3 pods (of ReplicaSet web-c68c68797|behind the Service web): /,
      );
      await expect(w.getByRole('toolbar')).toBeHidden();
      await expect(w.getByText('Live', { exact: true })).toBeHidden();
      await expect(page.locator(`[data-widget-root="${id}"] .inline-widget__nojs`)).toBeVisible();
      await context.close();
    });
  });
}

test("the max-surge widget runs a rollout on the reader's own numbers, resolved by the controller", async ({
  page,
}) => {
  const w = await openWidget(page, 'max-surge', '/rolling-updates/');
  await expect(w.getByTestId('widget-arithmetic')).toContainText('at most 4 pods, at least 3 available');
  await w.getByLabel('replicas', { exact: true }).selectOption('5');
  await w.getByLabel('maxSurge', { exact: true }).selectOption('0');
  await w.getByLabel('maxUnavailable', { exact: true }).selectOption('25%');
  await w.getByRole('button', { name: 'Roll out these numbers' }).click();
  await expect(w.getByTestId('widget-caption')).toContainText('5 replicas, maxSurge 0, maxUnavailable 25%');
  await expect(w.getByTestId('widget-caption')).toContainText('kubectl stores your numbers in web');
  await expect(w.getByTestId('widget-arithmetic')).toContainText('at most 5 pods, at least 4 available');
  await expect(w.getByTestId('widget-arithmetic')).toContainText('the old one 5 → 4');
});

test("the conflict widget stores alice's write, refuses bob's with 409 Conflict, and stores his retry on a fresh read", async ({
  page,
}) => {
  const w = await openWidget(page, 'conflict', '/control-plane/');
  await expect(w.getByTestId('widget-web')).toContainText('spec.replicas 3, resourceVersion "106"');
  await w.getByRole('button', { name: 'Both add a replica' }).click();
  const rows = w.getByTestId('widget-attempts').locator('tbody tr');
  await expect(rows.nth(0)).toContainText(/alice.*"106".*4.*200 OK, stored at revision 107/);
  await expect(rows.nth(1)).toContainText(/bob.*"106".*4.*409 Conflict/);
  await w.getByRole('button', { name: 'Next event' }).click();
  await expect(rows.nth(2)).toContainText(/bob again.*"110".*5.*200 OK, stored at revision 115/);
  await expect(w.getByTestId('widget-caption')).toContainText('Both changes count');
});

test('the cascade-delete widget shows each ownerReference, and the garbage collector deleting the ReplicaSet, then its pods', async ({
  page,
}) => {
  const w = await openWidget(page, 'cascade-delete', '/reconcile-loop/');
  const row = (name: string) => w.getByTestId('widget-object').filter({ hasText: name });
  const deployment = (await row('Deployment web').textContent())!.match(/uid ([0-9a-f]{8})…/)![1];
  await expect(row('ReplicaSet web-c68c68797')).toContainText(`ownerReference → ${deployment}…`);
  await expect(row('ReplicaSet web-c68c68797')).toContainText('stored');
  await w.getByRole('button', { name: 'Delete web' }).click();
  await expect(row('Deployment web')).toContainText('deleted by kubectl');
  await expect(row('ReplicaSet web-c68c68797')).toContainText('stored');
  // Each press waited for (a press before the last one's answer can meet a disabled button).
  await nextUntil(w, /the garbage collector deletes ReplicaSet/, 12);
  await expect(row('ReplicaSet web-c68c68797')).toContainText('deleted by garbage-collector');
  await expect(row('web-c68c68797-nzjqm')).toContainText('stored');
});

test('the pending-pod widget shows every node short of CPU and the FailedScheduling message, then binds the pod once load-2 is gone', async ({
  page,
}) => {
  const w = await openWidget(page, 'pending-pod', '/scheduler/');
  const nodes = w.getByTestId('widget-nodes');
  await expect(nodes.getByRole('row', { name: /^node-2 / })).toContainText(/800m\s*3200m\s*Insufficient cpu/);
  await expect(w.getByTestId('widget-message')).toContainText(
    '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
  );
  await w.getByRole('button', { name: 'Delete load-2' }).click();
  await w.getByRole('button', { name: 'Next event' }).click();
  await expect(w.getByTestId('widget-pod')).toContainText('bound to node-2');
  await expect(w.getByTestId('widget-caption')).toContainText('the scheduler tries report-6d98ddd556-vc5xc again');
  await expect(w.getByTestId('widget-message')).toHaveCount(0);
});

test('the new-replicaset widget shows web-c68c68797 alone at revision 1, then web-c47498c66 created at revision 2 and the old one kept at 0', async ({
  page,
}) => {
  const w = await openWidget(page, 'new-replicaset', '/rolling-updates/');
  const table = w.getByTestId('widget-replicasets');
  await expect(w.getByTestId('widget-deployment')).toContainText('template image nginx:1.27, annotation revision 1');
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('row', { name: /^web-c68c68797 / })).toContainText(
    /c68c68797\s*nginx:1\.27\s*1\s*3\s*3/,
  );
  await w.getByRole('button', { name: 'Set image nginx:1.28' }).click();
  await nextUntil(w, /^The controller finds/, 10);
  await expect(w.getByTestId('widget-caption')).toContainText(
    'finds no ReplicaSet whose pod template matches the new one, so it creates web-c47498c66',
  );
  await expect(table.getByRole('row', { name: /^web-c47498c66 / })).toContainText(
    /c47498c66\s*nginx:1\.28\s*2\s*1\s*0/,
  );
  await nextUntil(w, /^Rollout complete/, 10);
  await expect(w.getByTestId('widget-deployment')).toContainText('template image nginx:1.28, annotation revision 2');
  await expect(table.getByRole('row', { name: /^web-c47498c66 / })).toContainText(
    /c47498c66\s*nginx:1\.28\s*2\s*3\s*3/,
  );
  await expect(table.getByRole('row', { name: /^web-c68c68797 / })).toContainText(
    /c68c68797\s*nginx:1\.27\s*1\s*0\s*0/,
  );
});

test("the one-at-a-time widget shows web's 3 pods bound one per node in order, then places 3 more one cycle at a time", async ({
  page,
}) => {
  const w = await openWidget(page, 'one-at-a-time', '/scheduler/');
  const nodes = w.getByTestId('widget-nodes');
  await expect(w.getByTestId('widget-queue')).toContainText('Queue: empty');
  await expect(w.getByTestId('widget-bindings')).toHaveText(
    /1\. pjhzg → node-3\s*2\. nzjqm → node-2\s*3\. vc5xc → node-1/,
  );
  await expect(nodes.getByRole('row', { name: /^node-1 / })).toContainText(/652\s*1\s*1000m\s*1Gi/);
  await expect(nodes.getByRole('row', { name: /^node-3 / })).toContainText(/534\s*1\s*1000m\s*1Gi/);
  await w.getByRole('button', { name: 'Scale web to 6' }).click();
  await nextUntil(w, /'s cycle, from a cache/, 40);
  await expect(w.getByTestId('widget-caption')).toContainText(
    'node-1 634, node-2 634, node-3 634. All tie; picked at random',
  );
  await nextUntil(w, /6\. \w{5} → node-\d/, 40, w.getByTestId('widget-bindings'));
  for (const n of ['node-1', 'node-2', 'node-3'])
    await expect(nodes.getByRole('row', { name: new RegExp(`^${n} `) })).toContainText(/\d{3}\s*2\s*2000m\s*2Gi$/);
});

test('the rollout-undo widget scales web-c68c68797 back up under revision 3, and kubectl rollout history lists 2 and 3', async ({
  page,
}) => {
  const w = await openWidget(page, 'rollout-undo', '/rolling-updates/');
  const table = w.getByTestId('widget-replicasets');
  await expect(table.getByRole('row', { name: /^web-c47498c66 / })).toContainText('nginx:1.28');
  await expect(w.getByTestId('widget-history')).toContainText(/REVISION {2}CHANGE-CAUSE\n1 {9}<none>\n2 {9}<none>/);
  await w.getByRole('button', { name: 'kubectl rollout undo' }).click();
  await nextUntil(w, /^Rolled back/, 10);
  await expect(w.getByTestId('widget-caption')).toContainText(
    'web-c68c68797 (revision 3) at 3, web-c47498c66 (revision 2) at 0.',
  );
  await expect(w.getByTestId('widget-deployment')).toContainText('template nginx:1.27, revision 3');
  await expect(table.getByRole('row', { name: /^web-c68c68797 / })).toContainText('3 (was 1)');
  await expect(w.getByTestId('widget-history')).toContainText(/REVISION {2}CHANGE-CAUSE\n2 {9}<none>\n3 {9}<none>/);
});

test("the heartbeats widget shows many Lease renewals for each status update, and node-2's renewals stopping while the others go on", async ({
  page,
}) => {
  const w = await openWidget(page, 'heartbeats', '/node-failure/');
  const rows = w.getByTestId('widget-proofs').locator('tbody tr');
  await expect(rows).toHaveCount(3);
  // Columns after the node: renewTime, renewals, status updates, lastHeartbeatTime.
  const cell = (row: number, col: number) => rows.nth(row).locator('td').nth(col);
  for (const r of [0, 1, 2]) {
    await expect(cell(r, 1)).toHaveText('3');
    await expect(cell(r, 2)).toHaveText('1');
  }
  await w.getByRole('button', { name: 'Power node-2 off' }).click();
  await nextUntil(w, /Lease is \d+ s old, still at 3 renewals/, 10);
  await expect(w.getByTestId('widget-caption')).toContainText(
    "node-2's Lease is 35 s old, still at 3 renewals; node-1 has made 3 renewals and node-3 3.",
  );
  await expect(rows.nth(1).locator('th')).toContainText('node-2 off');
  await expect(cell(1, 0)).toContainText('35 s ago');
  await expect(cell(1, 1)).toHaveText('3');
  await expect(cell(0, 1)).toHaveText('6');
  await expect(w.getByRole('button', { name: 'Power node-2 on' })).toBeEnabled();
});

test('the force-delete widget removes a Terminating pod from the API server at once while node-2, cut off, still runs its container', async ({
  page,
}) => {
  const w = await openWidget(page, 'force-delete', '/node-failure/');
  const rows = w.getByTestId('widget-sides').locator('tbody tr');
  await expect(rows).toHaveCount(2);
  for (const r of [0, 1]) {
    await expect(rows.nth(r).locator('td').nth(0)).toHaveText('Terminating, 00:06:20');
    await expect(rows.nth(r).locator('td').nth(1)).toHaveText('nginx running');
  }
  await expect(w.getByTestId('widget-running')).toHaveText(
    'Running elsewhere (6), web-c68c68797-…: lkdzk, rzs7n, vc5xc on node-1; 2pdpp, lsm28, ss969 on node-3.',
  );
  await expect(w.getByTestId('widget-picture')).toContainText(
    'The button runs kubectl delete pod web-c68c68797-nzjqm --grace-period=0 --force.',
  );
  await w.getByRole('button', { name: 'Force-delete a pod' }).click();
  await expect(w.getByTestId('widget-caption')).toContainText(
    'web-c68c68797-nzjqm is gone from the API server at once',
  );
  await expect(rows.nth(0).locator('td').nth(0)).toHaveText('gone');
  await expect(rows.nth(0).locator('td').nth(1)).toHaveText('nginx running');
  await expect(w.getByTestId('widget-ran')).toContainText('Warning: Immediate deletion does not wait for confirmation');
  await expect(w.getByTestId('widget-ran')).toContainText(
    'pod "web-c68c68797-nzjqm" force deleted from default namespace',
  );
  await expect(w.getByRole('button', { name: 'Reconnect node-2' })).toBeEnabled();
});

test("the node-lease widget ages node-2's Lease past the grace period, then shows Ready Unknown and the unreachable taints", async ({
  page,
}) => {
  const w = await openWidget(page, 'node-lease', '/node-failure/');
  await expect(w.getByTestId('widget-node')).toContainText('machine on, Ready True, no unreachable taint');
  await w.getByRole('button', { name: "Cut node-2's power" }).click();
  await expect(w.getByTestId('widget-caption')).toContainText('node-2 loses power');
  await nextUntil(w, /NoExecute/, 40, w.getByTestId('widget-node'));
  await expect(w.getByTestId('widget-node')).toContainText(
    'machine off, Ready Unknown, taints node.kubernetes.io/unreachable:NoSchedule, node.kubernetes.io/unreachable:NoExecute',
  );
  await expect(w.getByTestId('widget-node')).toContainText('past the grace period');
  await expect(w.getByTestId('widget-lease-age')).toContainText(/renewTime is (5\d|6\d) s old/);
});

test("the toleration-countdown widget counts node-2's pods' 300 s down, and one press of Next event goes to their deletion", async ({
  page,
}) => {
  const w = await openWidget(page, 'toleration-countdown', '/node-failure/');
  const bars = w.getByTestId('widget-countdowns');
  await expect(bars.locator('li')).toHaveCount(2);
  await expect(bars).toContainText('no taint, no countdown yet');
  await w.getByRole('button', { name: "Cut node-2's power" }).click();
  const next = w.getByRole('button', { name: 'Next event' });
  await nextUntil(w, /NoExecute\. /, 10);
  await expect(bars.locator('li').filter({ hasText: '300 s tolerated: 300 s left' })).toHaveCount(2);
  await expect(w.getByTestId('widget-node')).toContainText(
    'machine off, Ready Unknown, taints unreachable:NoSchedule, unreachable:NoExecute',
  );
  await next.click();
  await expect(w.getByTestId('widget-caption')).toContainText('342 s after the power went the 300 s are up');
  await expect(bars.locator('li').filter({ hasText: 'Terminating' })).toHaveCount(2);
});

test("the frozen-endpoints widget keeps answering the client through node-1's rules while the control plane is stopped", async ({
  page,
}) => {
  const w = await openWidget(page, 'frozen-endpoints', '/control-plane-outage/');
  await expect(w.getByTestId('widget-control-plane')).toContainText(
    'Control plane running. kube-proxy on node-1: watching',
  );
  await w.getByRole('button', { name: 'Stop the control plane' }).click();
  await w.getByRole('button', { name: 'Next event' }).click();
  await expect(w.getByTestId('widget-caption')).toContainText(
    /s into the outage the client has had \d+ requests answered and none failed/,
    { timeout: 30_000 },
  );
  await expect(w.getByTestId('widget-control-plane')).toContainText(
    'Control plane stopped. kube-proxy on node-1: watches broken',
  );
  await expect(w.getByTestId('widget-requests').locator('li.w-fail')).toHaveCount(0);
  await expect(w.getByTestId('widget-requests').locator('li.w-ok')).not.toHaveCount(0);
  await expect(w.getByRole('button', { name: 'Start the control plane' })).toBeEnabled();
});

test('the kubelet-alone widget restarts a crashed container while the control plane is stopped, and reports it once it is back', async ({
  page,
}) => {
  const w = await openWidget(page, 'kubelet-alone', '/control-plane-outage/');
  const pod = w.getByTestId('widget-pod');
  await w.getByRole('button', { name: 'Stop the control plane' }).click();
  await expect(w.getByTestId('widget-control-plane')).toContainText('Control plane stopped.');
  await w.getByRole('button', { name: "Crash node-1's nginx" }).click();
  await expect(w.getByTestId('widget-caption')).toContainText("web-c68c68797-vc5xc's nginx now finds a typo");
  const next = w.getByRole('button', { name: 'Next event' });
  await nextUntil(w, /a third time/, 10);
  await expect(pod.getByRole('row', { name: /^restartCount / })).toHaveText(/restartCount\s*2\s*0/);
  await expect(w.getByTestId('widget-writes')).not.toContainText('Status syncs refused: 0.');
  await w.getByRole('button', { name: 'Start the control plane' }).click();
  await next.click();
  await expect(w.getByTestId('widget-caption')).toContainText(
    "the kubelet's status update lands: the API server now has restartCount 2",
  );
  await expect(pod.getByRole('row', { name: /^restartCount / })).toHaveText(/restartCount\s*2\s*2/);
});

test('the level-triggered widget: pods deleted while the controller-manager is stopped are replaced in one sync once it relists', async ({
  page,
}) => {
  const w = await openWidget(page, 'level-triggered', '/reconcile-loop/');
  const level = w.getByTestId('widget-level');
  const caption = w.getByTestId('widget-caption');
  await w.getByRole('button', { name: 'Stop the controller-manager' }).click();
  await expect(w.getByTestId('widget-controller-manager')).toContainText('kube-controller-manager stopped.');
  await w.getByRole('button', { name: 'Delete 2 pods' }).click();
  await expect(caption).toContainText('kubectl deletes web-c68c68797-nzjqm and web-c68c68797-pjhzg.');
  const until = (re: RegExp) => nextUntil(w, re, 12, caption);
  await until(/remove both pods from the API server/);
  await expect(level).toContainText("Writes to web's pods it never heard of: 8");
  await w.getByRole('button', { name: 'Start the controller-manager' }).click();
  await until(/in one sync, creates/);
  await expect(caption).toContainText('creates web-c68c68797-lkdzk and web-c68c68797-ss969');
  await expect(level).toContainText('Its relist: ADDED vc5xc, then BOOKMARK at revision 136; no DELETED.');
  await expect(level).toContainText("The ReplicaSet controller's one sync: 1 active of 3, so it creates lkdzk, ss969.");
});

test('the watch-resume widget: a pod bound to node-1 while it is cut off comes to its kubelet on the watch resumed from the last revision it saw', async ({
  page,
}) => {
  const w = await openWidget(page, 'watch-resume', '/control-plane/');
  const res = w.getByTestId('widget-resume');
  const caption = w.getByTestId('widget-caption');
  await w.getByRole('button', { name: 'Cut node-1 off' }).click();
  await expect(w.getByTestId('widget-link')).toContainText('node-1 cut off');
  await w.getByRole('button', { name: 'Scale web to 6' }).click();
  const until = (re: RegExp) => nextUntil(w, re, 12, caption);
  await until(/has heard of none of what changed there/);
  await expect(res).toContainText("Last pod revision its kubelet's watch delivered: 102.");
  await w.getByRole('button', { name: 'Reconnect node-1' }).click();
  await until(/replays from its history exactly what changed since/);
  await expect(caption).toContainText('watches from resourceVersion 102');
  await expect(res).toContainText('It watches again with resourceVersion=102');
  await expect(res.getByRole('listitem')).toHaveText(['ADDED web-c68c68797-ss969 revision 125']);
});

test("the filter-score widget shows the scheduler's arithmetic, and a cordoned node-3 sends the replacement to node-2", async ({
  page,
}) => {
  const w = await openWidget(page, 'filter-score', '/scheduler/');
  const scores = w.getByTestId('widget-scores');
  await expect(scores.getByRole('row', { name: /^node-3 / })).toContainText('53');
  await expect(scores.getByRole('row', { name: /^node-3 / })).toContainText('625');
  await expect(w.getByTestId('widget-pod')).toContainText('bound to node-3');
  await w.getByRole('button', { name: 'Cordon node-3, reschedule' }).click();
  await nextUntil(w, /NodeUnschedulable/, 12, w.getByTestId('widget-picture'));
  await expect(scores.getByRole('row', { name: /^node-3 / })).toContainText('NodeUnschedulable');
  await expect(w.getByTestId('widget-pod')).toContainText('bound to node-2');
  await expect(w.getByRole('button', { name: 'Uncordon node-3, reschedule' })).toBeEnabled();
});

test("the ready-endpoints widget shows the failing pod's endpoint not ready, not serving, then out of node-1's rules", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const w = await openWidget(page, 'ready-endpoints', '/networking/');
  const row = w.getByTestId('widget-endpoints').getByRole('row', { name: /web-6fbdc9d7d8-vc5xc/ });
  await expect(row.getByRole('cell')).toHaveText(['true', 'true', 'false', 'yes']);
  await w.getByRole('button', { name: 'Fail a readiness probe' }).click();
  await w.getByRole('button', { name: 'Play' }).click();
  await expect(w.getByTestId('widget-caption')).toContainText('ready false, serving false, terminating false', {
    timeout: 90_000,
  });
  await expect(row.getByRole('cell').nth(0)).toHaveText('false');
  await expect(row.getByRole('cell').nth(1)).toHaveText('false');
  await expect(w.getByTestId('widget-caption')).toContainText('rewrote its rules', { timeout: 60_000 });
  await expect(row.getByRole('cell').nth(3)).toHaveText('no');
});

test("the proxy-pick widget writes the reader's replica count into node-1's rules, 1/n … 1/2 and the rest", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const w = await openWidget(page, 'proxy-pick', '/networking/');
  const probabilities = w.getByTestId('widget-picks').locator('tbody td:nth-child(2)');
  await expect(probabilities).toHaveText(['0.3333333333', '0.5000000000', 'none: the rest']);
  await w.getByLabel('replicas', { exact: true }).selectOption('6');
  await w.getByRole('button', { name: 'Scale web to 6' }).click();
  await expect(w.getByTestId('widget-caption')).toContainText('kubectl scale deployment web --replicas=6');
  await w.getByRole('button', { name: 'Play' }).click();
  await expect(w.getByTestId('widget-caption')).toContainText('each endpoint gets 1 in 6 new connections', {
    timeout: 90_000,
  });
  await expect(probabilities).toHaveText([
    '0.1666666667',
    '0.2000000000',
    '0.2500000000',
    '0.3333333333',
    '0.5000000000',
    'none: the rest',
  ]);
  await expect(w.getByTestId('widget-picks').locator('tbody td:nth-child(4)')).toHaveText(Array(6).fill('16.7 %'));
});

test("the service-address widget: a deleted pod's replacement answers at a new IP behind the same ClusterIP", async ({
  page,
}) => {
  const w = await openWidget(page, 'service-address', '/networking/');
  await expect(w.getByTestId('widget-service')).toContainText('ClusterIP 10.109.48.121, port 80, selector app=web');
  const rows = w.getByTestId('widget-endpoints');
  await expect(rows.getByRole('row', { name: /^web-6c455b6594-lsm28 / })).toContainText(
    /10\.244\.1\.3\s*node-1\s*true\s*33 %/,
  );
  await w.getByRole('button', { name: "Delete web's pod on node-1" }).click();
  await nextUntil(w, /The ClusterIP is still 10\.109\.48\.121/, 30);
  await expect(rows.getByRole('row', { name: /^web-6c455b6594-lsm28 / })).toHaveCount(0);
  await expect(rows.getByRole('row', { name: /node-1/ })).toContainText(/10\.244\.1\.4\s*node-1\s*true\s*33 %/);
  await expect(w.getByTestId('widget-service')).toContainText('ClusterIP 10.109.48.121');
});

test("the restart-leases widget: the scheduler leads at once, the controller manager after its predecessor's 15 s, and no node goes Unknown", async ({
  page,
}) => {
  const w = await openWidget(page, 'restart-leases', '/control-plane-outage/');
  const locks = w.getByTestId('widget-locks');
  await expect(locks.getByRole('row', { name: /^kube-scheduler / })).toContainText('none (handed back)');
  await expect(w.getByTestId('widget-control-plane')).toContainText('stopped');
  await w.getByRole('button', { name: 'Start the control plane' }).click();
  await nextUntil(w, /new kube-controller-manager takes its Lease over/, 30);
  await expect(locks.getByRole('row', { name: /^kube-scheduler / })).toContainText(
    /control-plane_\S+\s*\d\d:\d\d:\d\d\s*1/,
  );
  await expect(w.getByTestId('widget-nodes')).toContainText('node-1 Ready True, node-2 Ready True, node-3 Ready True.');
});

test("the dns-lookup widget answers the recreated Service's new ClusterIP before node-3 has rules for it, then connects", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const w = await openWidget(page, 'dns-lookup', '/networking/');
  const [answer, conn] = [w.getByTestId('widget-answer'), w.getByTestId('widget-connect')];
  await expect(answer).toContainText('10.109.48.121 from coredns-');
  await expect(conn).toContainText(/answered by web-c68c68797-\w{5}/);
  await w.getByRole('button', { name: 'Recreate the Service web' }).click();
  await w.getByRole('button', { name: 'Play' }).click();
  await expect(w.getByTestId('widget-caption')).toContainText('CoreDNS has seen the new Service', { timeout: 60_000 });
  await expect(answer).toContainText('10.97.230.14');
  await expect(conn).toContainText('timed out: no rule for it on node-3');
  // Playing goes on from a beat after its pause; pressed again only if it has stopped there.
  const play = w.getByRole('button', { name: 'Play' });
  if (await play.isEnabled()) await play.click();
  await expect(w.getByTestId('widget-caption')).toContainText('kube-proxy has written the rules for 10.97.230.14', {
    timeout: 60_000,
  });
  await expect(conn).toContainText(/answered by web-c68c68797-\w{5}/);
});

test('the image-backoff widget lists each failed pull and the doubling wait, then the fix starts a new pod', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const w = await openWidget(page, 'image-backoff', '/troubleshooting/');
  await w.getByRole('button', { name: 'Upgrade to nginx:1.288' }).click();
  await w.getByRole('button', { name: 'Play' }).click();
  await expect(w.getByTestId('widget-caption')).toContainText('now 40 s, up to 300 s', { timeout: 120_000 });
  await expect(
    w.getByTestId('widget-pulls').getByRole('listitem').filter({ hasText: 'nginx:1.288: NotFound' }),
  ).toHaveCount(3);
  await expect(w.getByTestId('widget-backoff')).toContainText(/ErrImagePull|ImagePullBackOff/);
  await expect(w.getByTestId('widget-backoff')).toContainText('pull back-off 40 s');
  await w.getByRole('button', { name: 'Fix the tag (nginx:1.28)' }).click();
  await w.getByRole('button', { name: 'Play' }).click();
  await expect(w.getByTestId('widget-caption')).toContainText('pulled nginx:1.28 and runs', { timeout: 60_000 });
  await expect(w.getByTestId('widget-pulls').getByRole('listitem').last()).toContainText('nginx:1.28: OK');
});

test("the crash-loop widget counts restarts while the kubelet's wait doubles, and the fix waits out the last one", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const w = await openWidget(page, 'crash-loop', '/troubleshooting/');
  const row = w.getByTestId('widget-restarts').getByRole('row', { name: /web-c68c68797-vc5xc/ });
  await expect(row.getByRole('cell').nth(1)).toHaveText('0');
  await w.getByRole('button', { name: 'Crash a container' }).click();
  await w.getByRole('button', { name: 'Play' }).click();
  await expect(w.getByTestId('widget-caption')).toContainText('now 40 s, up to 300 s', { timeout: 120_000 });
  await expect(row.getByRole('cell')).toHaveText(['CrashLoopBackOff', '3', 'Error, exit 1', /^40 s/]);
  await expect(w.getByTestId('widget-starts')).toContainText(/\+0, \+\d+, \+\d+$/);
  await w.getByRole('button', { name: 'Fix the configuration' }).click();
  await w.getByRole('button', { name: 'Play' }).click();
  await expect(w.getByTestId('widget-caption')).toContainText('at the end of its wait, and stays up', {
    timeout: 90_000,
  });
  await expect(row.getByRole('cell').nth(1)).toHaveText('4');
});

test('the chain-stops widget marks the twelve steps, then stops a new pod at step 5 with the scheduler stopped and at step 7 on a mistyped tag', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const w = await openWidget(page, 'chain-stops', '/troubleshooting/');
  const cells = w.getByTestId('widget-chain').getByRole('listitem');
  await expect(cells).toHaveCount(12);
  await expect(w.getByTestId('widget-stop')).toContainText('all 12 steps done');
  await expect(cells.nth(11)).toContainText('12 kube-proxynode-1');
  await w.getByRole('button', { name: 'Stop the scheduler' }).click();
  await w.getByRole('button', { name: 'Play' }).click();
  await expect(w.getByTestId('widget-caption')).toContainText('The chain stops at step 5, the scheduler', {
    timeout: 60_000,
  });
  await expect(w.getByTestId('widget-stop')).toContainText('waits at step 5, scheduler');
  await expect(cells.nth(4)).toContainText('no node');
  await expect(w.getByTestId('widget-get-pods').getByRole('row').filter({ hasText: 'Pending' })).toHaveCount(1);
  await w.getByRole('button', { name: 'Reset' }).click();
  await w.getByRole('button', { name: 'Typo the image tag' }).click();
  await w.getByRole('button', { name: 'Play' }).click();
  await expect(w.getByTestId('widget-caption')).toContainText('The chain stops at step 7, the image pull', {
    timeout: 60_000,
  });
  await expect(cells.nth(6)).toContainText(/ErrImagePull|ImagePullBackOff/);
  await expect(
    w
      .getByTestId('widget-get-pods')
      .getByRole('row')
      .filter({ hasText: /ErrImagePull|ImagePullBackOff/ }),
  ).toHaveCount(1);
  await expect(w.getByTestId('widget-get-pods').getByRole('row').filter({ hasText: 'Running' })).toHaveCount(1);
});

test('the embeds show one widget each, live', async ({ page }) => {
  // One page per widget of the registry (26 and growing), each waited for until live.
  test.setTimeout(30_000 + 10_000 * WIDGETS.length);
  for (const { id } of WIDGETS) {
    await page.goto(`${BASE}/embed/${id}/`);
    const w = page.getByTestId(`widget-${id}`);
    await expect(w).toHaveAttribute('data-state', /^live /, { timeout: 30_000 });
    await expect(page.locator('[data-widget]')).toHaveCount(1);
  }
});
