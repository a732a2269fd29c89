// The kubectl terminal on a figure's own cluster, as a reader uses it: kubectl and its yaml load in
// the worker only when a terminal is first used (one chunk), typing runs commands whose output and
// errors are text, history and Tab completion, a manifest applied from the editor, the figure and
// its request log following each command, step back, a link to the moment, fuzzed lines that never
// break anything, keyboard only with visible focus, axe with the terminal open, and a 320 px phone.
import type { Locator, Page } from '@playwright/test';
import { BASE, cspViolations, expect, test } from './fixtures';
import { expectNoAxeViolations, showTab } from './figure-helpers';

const HUB = '[data-testid="figure-hub"]';
const line = (fig: Locator) => fig.getByRole('textbox', { name: 'kubectl command' });
const log = (fig: Locator) => fig.getByRole('log', { name: 'Terminal output' });

async function openHub(page: Page): Promise<Locator> {
  await page.goto(`${BASE}/control-plane/`);
  const fig = page.locator(HUB).first();
  await fig.scrollIntoViewIfNeeded();
  await expect(fig).toHaveAttribute('data-state', /^live /);
  return fig;
}

/** Types a line into the terminal and waits for its output to appear in the log. */
async function run(fig: Locator, text: string): Promise<void> {
  const entries = log(fig).locator('pre');
  const before = await entries.count();
  await line(fig).fill(text);
  await line(fig).press('Enter');
  await expect(entries).toHaveCount(Math.min(before + 1, 200));
}

test.describe('the figure terminal', () => {
  test('kubectl loads in the worker as one chunk, and only when a reader first uses a terminal', async ({
    page,
    watch,
  }) => {
    const js: string[] = [];
    // A dedicated worker's requests are reported with the page's.
    page.context().on('request', (r) => {
      if (r.url().endsWith('.js')) js.push(new URL(r.url()).pathname);
    });
    const fig = await openHub(page);
    await expect(fig.getByTestId('terminal').or(fig.locator('.kit-term'))).toBeVisible();
    await page.waitForTimeout(500);
    // kubectl's chunk is named after its entry, the figures' terminal (terminal-…), and it loads the
    // API server's kubectl-only part, which it shares with the link decoder (kubectl-extras-…).
    const kubectl = () => js.filter((p) => /\/(terminal|kubectl-extras)-[^/]*\.js$/.test(p));
    expect(
      js.some((p) => /core\.worker-/.test(p)),
      'the worker started',
    ).toBe(true);
    expect(kubectl(), 'kubectl is not fetched before a terminal is used').toEqual([]);
    expect(
      js.filter((p) => /\/Terminal\.[^/]*\.js$/.test(p)),
      'nor is the terminal UI',
    ).toEqual([]);
    await line(fig).focus();
    await expect(fig.getByTestId('terminal')).toBeVisible();
    await run(fig, 'kubectl get nodes');
    await expect(log(fig)).toContainText(/NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION/);
    expect(
      kubectl().filter((p) => !/\/kubectl-extras-/.test(p)),
      'one kubectl chunk',
    ).toHaveLength(1);
    expect(kubectl(), 'and its part of the API server, each once').toHaveLength(2);
    await run(fig, 'kubectl get pods');
    expect(kubectl(), 'still the same two').toHaveLength(2);
    expect(watch.errors).toEqual([]);
    expect(await cspViolations(page)).toEqual([]);
  });

  test('kubectl explain loads its schemas as a chunk of their own, only for an explain line', async ({
    page,
    watch,
  }) => {
    const js: string[] = [];
    page.context().on('request', (r) => {
      if (r.url().endsWith('.js')) js.push(new URL(r.url()).pathname);
    });
    const fig = await openHub(page);
    await line(fig).focus();
    await expect(fig.getByTestId('terminal')).toBeVisible();
    await run(fig, 'kubectl get nodes');
    const explain = () => js.filter((p) => /\/explain-[^/]*\.js$/.test(p));
    expect(explain(), 'not with kubectl').toEqual([]);
    await run(fig, 'kubectl explain pc.preemptionPolicy');
    await expect(log(fig)).toContainText('KIND:       PriorityClass');
    await expect(log(fig)).toContainText('FIELD: preemptionPolicy <string>');
    await run(fig, 'kubectl explain pods.bogus');
    await expect(log(fig)).toContainText('error: field "bogus" does not exist');
    expect(explain(), 'once').toHaveLength(1);
    expect(watch.errors).toEqual([]);
    expect(await cspViolations(page)).toEqual([]);
  });

  test('typing: output, errors, history, completion, a manifest, and the figure following each command', async ({
    page,
    watch,
  }) => {
    const fig = await openHub(page);
    await line(fig).focus();
    await expect(fig.getByTestId('terminal')).toBeVisible();
    const step0 = Number(await fig.getAttribute('data-step'));

    await run(fig, 'kubectl create deployment web --image=nginx:1.27 --replicas=2');
    await expect(log(fig)).toContainText('deployment.apps/web created');
    await expect.poll(async () => Number(await fig.getAttribute('data-step'))).toBeGreaterThan(step0);
    await expect(fig).toHaveAttribute('data-state', /diverged|between|at-beat/);
    // The request log shows kubectl's request.
    await showTab(fig, 'Requests');
    await expect(fig.getByTestId('request-log')).toContainText('kubectl');
    await showTab(fig, 'Pipeline');

    await run(fig, 'sim settle');
    await run(fig, 'kubectl get deployments');
    await expect(log(fig)).toContainText(/web\s+2\/2\s+2\s+2/);
    await expect(fig.getByTestId('cluster-canvas')).toContainText('web-');

    // Errors are kubectl's own, in the log.
    await run(fig, 'kubectl frobnicate');
    await expect(log(fig).locator('pre').last()).toContainText('error: unknown command "frobnicate" for "kubectl"');
    await run(fig, 'kubectl get pods --no-such-flag');
    await expect(log(fig).locator('pre').last()).toContainText('unknown flag: --no-such-flag');

    // History: ↑ brings back the previous lines, ↓ returns to what was being typed.
    await line(fig).fill('draft');
    await line(fig).press('ArrowUp');
    await expect(line(fig)).toHaveValue('kubectl get pods --no-such-flag');
    await line(fig).press('ArrowUp');
    await expect(line(fig)).toHaveValue('kubectl frobnicate');
    await line(fig).press('ArrowDown');
    await line(fig).press('ArrowDown');
    await expect(line(fig)).toHaveValue('draft');

    // Tab completes commands, types, names from the cluster and flags.
    await line(fig).fill('kubectl get dep');
    await line(fig).press('Tab');
    await expect(line(fig)).toHaveValue('kubectl get deployments ');
    await expect(line(fig)).toBeFocused();
    await line(fig).fill('kubectl describe deployment w');
    await line(fig).press('Tab');
    await expect(line(fig)).toHaveValue('kubectl describe deployment web ');
    await line(fig).fill('kubectl scale deployment web --rep');
    await line(fig).press('Tab');
    await expect(line(fig)).toHaveValue('kubectl scale deployment web --replicas=');
    await line(fig).fill('sim node st');
    await line(fig).press('Tab');
    await expect(log(fig).locator('pre').last()).toContainText('start  stop');

    // A manifest on stdin: the editor appears for `kubectl apply -f -`, Ctrl+Enter applies it.
    await line(fig).fill('kubectl apply -f -');
    const editor = fig.getByRole('textbox', { name: /Manifest/ });
    await expect(editor).toBeVisible();
    await editor.fill('apiVersion: v1\nkind: Namespace\nmetadata:\n  name: demo\n');
    const entries = await log(fig).locator('pre').count();
    await editor.press('Control+Enter');
    await expect(log(fig).locator('pre')).toHaveCount(entries + 1);
    await expect(log(fig).locator('pre').last()).toContainText('namespace/demo created');
    await expect(editor).toBeHidden();

    // help and clear.
    await run(fig, 'help');
    await expect(log(fig)).toContainText('sim <command>');
    await line(fig).fill('clear');
    await line(fig).press('Enter');
    await expect(log(fig).locator('pre')).toHaveCount(0);

    // Step back undoes the last command's step; Escape leaves the terminal for its button, where ← steps.
    await run(fig, 'kubectl scale deployment web --replicas=4');
    const after = Number(await fig.getAttribute('data-step'));
    await line(fig).press('Escape');
    await expect(fig.locator('[data-action="terminal"]')).toBeFocused();
    await page.keyboard.press('j');
    await expect.poll(async () => Number(await fig.getAttribute('data-step'))).toBe(after - 1);
    await page.keyboard.press('l');
    await expect.poll(async () => Number(await fig.getAttribute('data-step'))).toBe(after);
    expect(watch.errors).toEqual([]);
  });

  test('a link after terminal commands opens on the same frame, even with the clock run on past its step', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const fig = await openHub(page);
    await line(fig).focus();
    await expect(fig.getByTestId('terminal')).toBeVisible();
    await run(fig, 'kubectl create deployment web --image=nginx:1.27 --replicas=1');
    await run(fig, 'kubectl get deployments');
    // The output's copy button copies the transcript as text.
    await fig.getByRole('button', { name: 'Copy output' }).click();
    await expect(fig.getByText('Output copied.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(
      /^\$ kubectl create deployment web --image=nginx:1\.27 --replicas=1\ndeployment\.apps\/web created\n\$ kubectl get deployments\nNAME /,
    );
    const step = await fig.getAttribute('data-step');
    const canvas = await fig.getByTestId('cluster-canvas').innerText();
    await fig.getByRole('button', { name: 'Copy link to this step' }).click();
    await expect(fig.getByText('Link copied.')).toBeVisible();
    const url = await page.evaluate(() => navigator.clipboard.readText());
    expect(url).toContain('fig=hub.');
    await page.goto(url);
    const again = page.locator(HUB).first();
    await again.scrollIntoViewIfNeeded();
    await expect(again).toHaveAttribute('data-state', /^live /);
    await expect(again).toHaveAttribute('data-step', step!);
    await expect.poll(() => again.getByTestId('cluster-canvas').innerText()).toBe(canvas);
    // The clock run on past the last recorded step: the link says how far, and opens there, clock and all.
    await line(again).focus();
    await expect(again.getByTestId('terminal')).toBeVisible();
    await run(again, 'sim advance 45s');
    const clock = await again.locator('.kit-clock').innerText();
    const step2 = await again.getAttribute('data-step');
    await again.getByRole('button', { name: 'Copy link to this step' }).click();
    await expect(again.getByText('Link copied.')).toBeVisible();
    await page.goto(await page.evaluate(() => navigator.clipboard.readText()));
    const third = page.locator(HUB).first();
    await third.scrollIntoViewIfNeeded();
    await expect(third).toHaveAttribute('data-state', /^live /);
    await expect(third).toHaveAttribute('data-step', step2!);
    await expect(third.locator('.kit-clock')).toHaveText(clock);
  });

  test('a link whose commands only kubectl sends (a JSON patch, a server dry run, an access review) reopens without kubectl itself', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const fig = await openHub(page);
    await line(fig).focus();
    await expect(fig.getByTestId('terminal')).toBeVisible();
    await run(fig, 'kubectl create deployment web --image=nginx:1.27 --replicas=1');
    await run(
      fig,
      `kubectl patch deployment web --type=json -p '[{"op":"replace","path":"/spec/replicas","value":2}]'`,
    );
    await expect(log(fig)).toContainText('deployment.apps/web patched');
    await run(fig, 'kubectl scale deployment web --replicas=3 --dry-run=server');
    await run(fig, 'kubectl auth can-i list pods');
    await expect(log(fig)).toContainText('yes');
    const step = await fig.getAttribute('data-step');
    const canvas = await fig.getByTestId('cluster-canvas').innerText();
    await fig.getByRole('button', { name: 'Copy link to this step' }).click();
    await expect(fig.getByText('Link copied.')).toBeVisible();
    const url = await page.evaluate(() => navigator.clipboard.readText());
    // A fresh page: the replay loads the API server's kubectl-only part with the link decoder, not kubectl.
    const js: string[] = [];
    page.context().on('request', (r) => {
      if (r.url().endsWith('.js')) js.push(new URL(r.url()).pathname);
    });
    await page.goto(url);
    const again = page.locator(HUB).first();
    await again.scrollIntoViewIfNeeded();
    await expect(again).toHaveAttribute('data-state', /^live /);
    await expect(again).toHaveAttribute('data-step', step!);
    await expect.poll(() => again.getByTestId('cluster-canvas').innerText()).toBe(canvas);
    await expect(again.locator('.figure-live__notice')).toContainText('Opened from a link at step ');
    expect(
      js.filter((p) => /\/kubectl-extras-[^/]*\.js$/.test(p)),
      "the API server's kubectl part",
    ).toHaveLength(1);
    expect(
      js.filter((p) => /\/terminal-[^/]*\.js$/.test(p)),
      'kubectl itself',
    ).toEqual([]);
  });

  test('fuzzed lines, markup and control characters never break the page, the figure or the worker; the log stays text', async ({
    page,
    watch,
  }) => {
    const fig = await openHub(page);
    await line(fig).focus();
    await expect(fig.getByTestId('terminal')).toBeVisible();
    // A small deterministic generator (the same lines every run).
    let seed = 20261201;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const words = [
      'kubectl',
      'sim',
      'get',
      'pods',
      'nodes',
      'delete',
      'apply',
      '-f',
      '-',
      '-n',
      '-o',
      'yaml',
      'advance',
      '1s',
      'node',
      'stop',
      'node-2',
      '"',
      "'",
      '\\',
      '<img src=x onerror=alert(1)>',
      '<b>bold</b>',
      '{@html x}',
      '\u0000',
      '\u0007',
      '\u001b[31m',
      '\u202e',
      '🙂',
      '--',
      '=',
      'deploy/web',
    ];
    const lines = [
      '<script>alert(1)</script>',
      'kubectl get pods <img src=x onerror=alert(1)>',
      'kubectl get pods \u0000\u0001\u0002\u001b[2J',
      'x'.repeat(5000),
      ...Array.from({ length: 36 }, () =>
        Array.from({ length: 1 + rnd(7) }, () => words[rnd(words.length)]).join(rnd(3) ? ' ' : ''),
      ),
    ];
    for (const l of lines) {
      const entries = log(fig).locator('pre');
      const before = await entries.count();
      await line(fig).fill(l);
      await line(fig).press('Enter');
      if (l.trim() === 'clear') continue;
      // A line that reads a manifest opens the editor: a fuzzed manifest goes in, applied with Ctrl+Enter.
      const editor = fig.getByRole('textbox', { name: /Manifest/ });
      if (await editor.isVisible()) {
        await editor.fill(`kind: [${l}\n\u0000: *x`);
        await editor.press('Control+Enter');
      }
      await expect(entries).toHaveCount(before + 1);
    }
    await expect(log(fig)).toContainText('at most 4096');
    // A 1 MB paste into the manifest editor, and a YAML alias bomb: a message each, nothing breaks.
    // Each waits for its own entry (the one before it also says "error").
    const entries = log(fig).locator('pre');
    let before = await entries.count();
    await line(fig).fill('kubectl apply -f -');
    const editor = fig.getByRole('textbox', { name: /Manifest/ });
    await editor.fill('x'.repeat(1024 * 1024));
    await editor.press('Control+Enter');
    await expect(entries).toHaveCount(Math.min(before + 1, 200));
    await expect(entries.last()).toContainText('at most 262144');
    before = await entries.count();
    await line(fig).fill('kubectl apply -f -');
    await editor.fill(
      'a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n',
    );
    await editor.press('Control+Enter');
    await expect(entries).toHaveCount(Math.min(before + 1, 200));
    await expect(entries.last()).toContainText('error');
    await expect(entries.last()).not.toContainText('262144');
    // Nothing typed became markup: the log holds only its own pre and span elements.
    expect(await log(fig).locator(':not(pre):not(span):not(p):not(code)').count()).toBe(0);
    expect(await page.locator('img[src="x"], b:text("bold")').count()).toBe(0);
    await run(fig, 'kubectl get nodes');
    await expect(log(fig).locator('pre').last()).toContainText('node-1');
    await expect(fig).toHaveAttribute('data-state', /^live /);
    expect(watch.errors).toEqual([]);
  });

  test('keyboard only: the Terminal button opens it with the cursor in the line, focus is visible, Escape leaves', async ({
    page,
  }) => {
    await page.goto(`${BASE}/reconcile-loop/`);
    const fig = page.locator('[data-testid="figure-cluster"]').first();
    await fig.scrollIntoViewIfNeeded();
    await expect(fig).toHaveAttribute('data-state', /^live /);
    await expect(fig.locator('.kit-term')).toHaveCount(0);
    const button = fig.locator('[data-action="terminal"]');
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    // The stage's tabs are one Tab stop; the next is the Terminal button beside them.
    await fig.getByRole('tab', { name: 'Cluster', exact: true }).focus();
    await page.keyboard.press('Tab');
    await expect(button).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(line(fig)).toBeFocused();
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    const outline = await line(fig).evaluate((e) => getComputedStyle(e).outlineStyle);
    expect(outline).not.toBe('none');
    await page.keyboard.type('sim advance 10s');
    await page.keyboard.press('Enter');
    await expect(log(fig).locator('pre')).toHaveCount(1);
    // Tab on an empty line moves on (the keyboard is never trapped); Shift+Tab comes back.
    await page.keyboard.press('Tab');
    await expect(line(fig)).not.toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(line(fig)).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(button).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(fig.getByTestId('terminal')).toBeHidden();
    await page.keyboard.press('Enter');
    await expect(line(fig)).toBeFocused();
    await expect(log(fig).locator('pre'), 'the transcript is kept while closed').toHaveCount(1);
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`axe with the terminal open (${theme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
      const fig = await openHub(page);
      await expectNoAxeViolations(page, HUB, `the stand-in terminal (${theme})`);
      await line(fig).focus();
      await expect(fig.getByTestId('terminal')).toBeVisible();
      await run(fig, 'kubectl get nodes');
      await run(fig, 'kubectl frobnicate');
      await line(fig).fill('kubectl apply -f -');
      await expectNoAxeViolations(
        page,
        HUB,
        `the terminal open with output, an error and the manifest editor (${theme})`,
      );
    });
  }

  test('at 320 px the terminal fits: nothing wider than the screen', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 800 });
    const fig = await openHub(page);
    await line(fig).focus();
    await expect(fig.getByTestId('terminal')).toBeVisible();
    await run(fig, 'kubectl get pods -A -o wide');
    await line(fig).fill('kubectl apply -f -');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    const box = await fig.getByTestId('terminal').boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(320);
  });

  test('Ctrl+C stops a long sim advance after its current slice, keeps what ran, and prints ^C', async ({ page }) => {
    const fig = await openHub(page);
    await line(fig).focus();
    await expect(fig.getByTestId('terminal')).toBeVisible();
    // kubectl's chunk first (a line sent while it loads cannot be stopped yet).
    await run(fig, 'kubectl get nodes');
    await expect(log(fig)).toContainText('node-1');
    await line(fig).fill('sim advance 24h');
    await line(fig).press('Enter');
    await expect(log(fig)).toHaveAttribute('aria-busy', 'true');
    await line(fig).press('Control+c');
    await expect(log(fig)).toContainText('^C');
    await expect(log(fig)).toHaveAttribute('aria-busy', 'false');
    // Less than the day asked for ran: the clock stopped where the reader did.
    const clock = (await fig.getByRole('timer').getAttribute('aria-label')) ?? '';
    expect(Number(/(\d+) minutes?/.exec(clock)?.[1] ?? 0)).toBeLessThan(24 * 60);
  });

  test('a change made with the clock paused says so in one line, and its button runs sim settle', async ({ page }) => {
    const fig = await openHub(page);
    await line(fig).focus();
    await run(fig, 'kubectl create deployment api --image=nginx:1.27');
    const note = fig.getByTestId('terminal-paused');
    await expect(note).toHaveCount(1);
    await expect(note).toContainText('The clock is paused: nothing has acted on this yet.');
    // A read changes nothing: the note goes and does not come back.
    await run(fig, 'kubectl get deployments');
    await expect(note).toHaveCount(0);
    await run(fig, 'kubectl scale deployment api --replicas=2');
    await expect(note).toHaveCount(1);
    const entries = log(fig).locator('pre');
    const before = await entries.count();
    await note.getByRole('button', { name: 'Run sim settle' }).click();
    await expect(entries).toHaveCount(before + 1);
    await expect(entries.last()).toContainText('$ sim settle');
    await expect(note).toHaveCount(0);
  });
});
