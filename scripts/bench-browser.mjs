// Browser benchmarks of the figures (`npm run bench` runs this after the core's and the peer's):
// - live sooner: on every figure page, with the CPU throttled 4× (Chrome's DevTools protocol, the
//   cheap-phone setting) and unthrottled, the time from the figure coming into view until its demos
//   answer a press, and each Step forward's answer time; side by side with an earlier build of the
//   site (BENCH_BASELINE_REF, default the newest tag, else main when issue 26's work began; built once
//   into the temp folder, see scripts/lib/baseline.mjs) served beside this one in the same run;
// - what one step costs the page's main thread (Chrome's own performance counters);
// - Lighthouse's mobile audit of every page with a figure.
// Needs the built site (`npm run build`); prints figures, writes the live-sooner table to
// reports/bench-browser.json, and asserts nothing, like the rest of the bench.
//   node scripts/bench-browser.mjs [--steps N] [--live-steps N] [--live-runs N] [--no-lighthouse] [--no-baseline]
//   BENCH_BASELINE_REF=<ref> picks the build compared with; BENCH_BASELINE=0 (or --no-baseline) leaves it out.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { baselineDist, baselineRef } from './lib/baseline.mjs';
import { resolveBrowser } from './lib/browser.mjs';
import { serveSite } from './serve.mjs';

const args = process.argv.slice(2);
const num = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const steps = num('--steps', 40);
const liveSteps = num('--live-steps', 20);
const liveRuns = Math.max(1, num('--live-runs', 2));
const withLighthouse = !args.includes('--no-lighthouse');
const withBaseline = !args.includes('--no-baseline') && process.env.BENCH_BASELINE !== '0';
const PORT = 4391;
const BASE_PORT = 4392;
const origin = `http://127.0.0.1:${PORT}`;
const line = (label, value) => console.log(`  ${label.padEnd(52)} ${value}`);
const fmt = (n, d = 1) => n.toFixed(d);

/** Every page with a live figure, and its figure (e2e/figure-helpers.ts LIVE_FIGURES). */
const FIGURE_PAGES = [
  { id: 'cluster', path: '/' },
  { id: 'cluster', path: '/reconcile-loop/' },
  { id: 'hub', path: '/control-plane/' },
  { id: 'scheduler', path: '/scheduler/' },
  { id: 'rollout', path: '/rolling-updates/' },
  { id: 'node-failure', path: '/node-failure/' },
  { id: 'outage', path: '/control-plane-outage/' },
];
/** The islands' rootMargin (FigureStory.astro's client:visible): a figure this near the viewport starts loading. */
const ISLAND_MARGIN_PX = 400;

if (!existsSync('dist/index.html')) {
  console.log('\nBrowser: skipped (no built site; run npm run build first)');
  process.exit(0);
}

// Served as a host that reads dist/_headers serves it (CSP header, gzip), so Lighthouse scores what a
// reader gets where the site is published (scripts/serve.mjs).
const servers = [await serveSite({ dir: 'dist', port: PORT, base: '' })];
const stop = () => {
  for (const server of servers) {
    try {
      server.close();
      server.closeAllConnections();
    } catch {
      /* already gone */
    }
  }
};
process.on('exit', stop);

/** Script events on a thread, from a Chrome trace: what runs the page's own JavaScript. */
const SCRIPT_EVENTS = new Set([
  'FunctionCall',
  'EventDispatch',
  'FireAnimationFrame',
  'TimerFire',
  'RunMicrotasks',
  'V8.Execute',
  'EvaluateScript',
]);

/**
 * The renderer main thread's script CPU time (the trace's thread time, tdur, which barely moves when
 * other processes load the machine, where wall time does) between one keydown and the next, in ms.
 */
function scriptCpuPerKeydown(events) {
  const isKeydown = (e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keydown';
  const main = events.find(
    (e) =>
      e.name === 'thread_name' &&
      e.args?.name === 'CrRendererMain' &&
      events.some((x) => x.pid === e.pid && x.tid === e.tid && isKeydown(x)),
  );
  if (!main) return [];
  const mine = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.tdur !== undefined)
    .sort((a, b) => a.ts - b.ts);
  const starts = mine.filter(isKeydown).map((e) => e.ts);
  const per = starts.map(() => 0);
  let end = -1;
  let i = -1;
  for (const e of mine) {
    while (i + 1 < starts.length && starts[i + 1] <= e.ts) i++;
    // Only outermost script events: a nested one's time is already in its parent's.
    if (i < 0 || !SCRIPT_EVENTS.has(e.name) || e.ts < end) continue;
    per[i] += e.tdur / 1000;
    end = e.ts + e.dur;
  }
  return per;
}

async function waitForServer(at = origin) {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(at + '/')).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the static server did not start');
}

const pct = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

/**
 * In the page: scrolls the figure into view (its island hydrates then, or at once if it was within
 * the island's margin when the page opened: then the clock starts at navigation), waits until it is
 * live, presses its first enabled demo and waits for the step to change, then presses Step forward
 * `steps` times, each answered by a new step (a frame between presses). Times are the page's own
 * performance.now, so the harness's round trips are not in them.
 */
async function measureInPage({ sel, steps, margin }) {
  const now = () => performance.now();
  const q = () => document.querySelector(sel);
  const until = (pred, ms = 120_000) =>
    new Promise((resolve, reject) => {
      if (pred()) {
        resolve(now());
        return;
      }
      const mo = new MutationObserver(() => {
        if (pred()) {
          mo.disconnect();
          clearTimeout(to);
          resolve(now());
        }
      });
      mo.observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['data-state', 'data-step', 'aria-disabled'],
      });
      const to = setTimeout(() => {
        mo.disconnect();
        reject(new Error(`timed out waiting: ${pred}`));
      }, ms);
    });
  const frame = () =>
    new Promise((r) => {
      requestAnimationFrame(() => requestAnimationFrame(r));
    });
  const atOpen = q().getBoundingClientRect().top < innerHeight + margin;
  const t0 = atOpen ? 0 : now();
  q().scrollIntoView({ block: 'center' });
  const live = await until(() => q()?.getAttribute('data-state')?.startsWith('live'));
  const enabled = (b) => b && b.getAttribute('aria-disabled') !== 'true';
  const demo = [...q().querySelectorAll('[data-demo]')].find(enabled);
  if (!demo) throw new Error('no demo is enabled when the figure is live');
  const before = q().getAttribute('data-step');
  const pressed = now();
  demo.click();
  const answered = await until(() => q().getAttribute('data-step') !== before);
  await frame();
  // A figure that plays on after a press is paused, so that each step below is the reader's own.
  if (/\bplaying\b/.test(q().getAttribute('data-state') ?? '')) {
    q().querySelector('[data-action="play"]')?.click();
    await frame();
  }
  const times = [];
  for (let i = 0; i < steps; i++) {
    const forward = q().querySelector('[data-action="forward"]');
    if (!enabled(forward)) break;
    const at = q().getAttribute('data-step');
    const t = now();
    forward.click();
    await until(() => q().getAttribute('data-step') !== at);
    times.push(now() - t);
    await frame();
  }
  return {
    atOpen,
    liveMs: live - t0,
    answerMs: answered - t0,
    pressMs: answered - pressed,
    demo: demo.getAttribute('data-demo'),
    steps: times,
  };
}

/** One fresh visit (its own context: empty cache, as a first visit) to a figure page at a CPU throttling rate. */
async function visit(browser, at, fig, rate) {
  const context = await browser.newContext({ viewport: { width: 412, height: 860 } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    // Set before navigating; Chromium keeps a target's emulation across its navigations.
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    await page.goto(at + fig.path, { waitUntil: 'load' });
    return await page.evaluate(measureInPage, {
      sel: `[data-testid="figure-${fig.id}"]`,
      steps: liveSteps,
      margin: ISLAND_MARGIN_PX,
    });
  } finally {
    await context.close();
  }
}

/** Figures opened from a link to their last moment: node-failure's story is the longest replay (~40,000 events). */
const LINKED = [
  { id: 'node-failure', path: '/node-failure/' },
  { id: 'cluster', path: '/reconcile-loop/' },
];

/** A link to the figure's last moment, made by the core as the worker makes it (the `fig` parameter's value). */
async function linkToEnd(id) {
  const { compileFigure, createFigureServer, loadFigure } = await import('../src/sim/index.ts');
  const def = await loadFigure(id);
  const { story } = compileFigure(def);
  const serve = createFigureServer({ [id]: def })('b');
  await serve.open(id, story);
  await serve.seek(story.end);
  const r = await serve.link();
  if (!r.ok) throw new Error(`no link for ${id}`);
  return { value: `${id}.${r.value}`, step: story.end };
}

/** In the page: from the figure coming into view (or navigation, as above) until it is live at the link's step. */
async function linkInPage({ sel, step, margin }) {
  const now = () => performance.now();
  const q = () => document.querySelector(sel);
  const atOpen = q().getBoundingClientRect().top < innerHeight + margin;
  const t0 = atOpen ? 0 : now();
  q().scrollIntoView({ block: 'center' });
  const done = () =>
    q()?.getAttribute('data-state')?.startsWith('live') && q().getAttribute('data-step') === String(step);
  await new Promise((resolve, reject) => {
    if (done()) {
      resolve();
      return;
    }
    const mo = new MutationObserver(() => {
      if (done()) {
        mo.disconnect();
        clearTimeout(to);
        resolve();
      }
    });
    mo.observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-state', 'data-step'],
    });
    const to = setTimeout(() => {
      mo.disconnect();
      reject(
        new Error(`not live at step ${step}: ${q()?.getAttribute('data-state')} at ${q()?.getAttribute('data-step')}`),
      );
    }, 120_000);
  });
  return { atOpen, liveMs: now() - t0 };
}

/** Each linked figure, each build, at 4× and 1×: the medians of `liveRuns` fresh visits. */
async function linkOpens(browser, builds) {
  const rows = [];
  for (const fig of LINKED) {
    const link = await linkToEnd(fig.id);
    for (const rate of [4, 1]) {
      const row = { path: fig.path, figure: fig.id, step: link.step, rate };
      for (let run = 0; run < liveRuns; run++) {
        for (const b of builds) {
          const acc = (row[b.key] ??= { times: [], errors: [] });
          const context = await browser.newContext({ viewport: { width: 412, height: 860 } });
          try {
            const page = await context.newPage();
            const cdp = await context.newCDPSession(page);
            await cdp.send('Emulation.setCPUThrottlingRate', { rate });
            await page.goto(`${b.origin}${fig.path}?fig=${encodeURIComponent(link.value)}`, { waitUntil: 'load' });
            acc.times.push(
              (
                await page.evaluate(linkInPage, {
                  sel: `[data-testid="figure-${fig.id}"]`,
                  step: link.step,
                  margin: ISLAND_MARGIN_PX,
                })
              ).liveMs,
            );
          } catch (e) {
            acc.errors.push(e instanceof Error ? e.message.split('\n')[0] : String(e));
          } finally {
            await context.close();
          }
        }
      }
      for (const b of builds)
        row[b.key] = { liveMs: row[b.key].times.length ? median(row[b.key].times) : null, errors: row[b.key].errors };
      rows.push(row);
      const cells = builds.map((b) =>
        (row[b.key].liveMs === null
          ? `failed (${row[b.key].errors[0]})`
          : `${ms(row[b.key].liveMs).padStart(6)} ms`
        ).padEnd(26),
      );
      console.log(
        `  ${`${fig.path} at step ${link.step.toLocaleString('en-US')}`.padEnd(34)} ${`${rate}×`.padEnd(4)} ${cells.join(' │ ')}`,
      );
    }
  }
  return rows;
}

const median = (xs) => pct(xs, 0.5);

/** The live-sooner table: every figure page, each build, at 4× and 1×; `liveRuns` visits each, medians of them. */
async function liveSooner(browser, builds) {
  const rows = [];
  for (const rate of [4, 1]) {
    for (const fig of FIGURE_PAGES) {
      const row = { path: fig.path, figure: fig.id, rate };
      for (let run = 0; run < liveRuns; run++) {
        // The builds take turns, so that whatever else the machine does falls on both alike.
        for (const b of builds) {
          const acc = (row[b.key] ??= { runs: [], steps: [], errors: [] });
          try {
            const r = await visit(browser, b.origin, fig, rate);
            acc.runs.push(r);
            acc.steps.push(...r.steps);
          } catch (e) {
            acc.errors.push(e instanceof Error ? e.message.split('\n')[0] : String(e));
          }
        }
      }
      for (const b of builds) {
        const acc = row[b.key];
        row[b.key] = acc.runs.length
          ? {
              atOpen: acc.runs[0].atOpen,
              demo: acc.runs[0].demo,
              liveMs: median(acc.runs.map((r) => r.liveMs)),
              answerMs: median(acc.runs.map((r) => r.answerMs)),
              pressMs: median(acc.runs.map((r) => r.pressMs)),
              stepP50: acc.steps.length ? pct(acc.steps, 0.5) : null,
              stepP95: acc.steps.length ? pct(acc.steps, 0.95) : null,
              stepCount: acc.steps.length,
              errors: acc.errors,
            }
          : { errors: acc.errors };
      }
      rows.push(row);
      printRow(row, builds);
    }
  }
  return rows;
}

const ms = (n) => (n === null || n === undefined ? '—' : `${fmt(n, 0)}`);
function printRow(row, builds) {
  const cells = builds.map((b) => {
    const r = row[b.key];
    if (r.liveMs === undefined) return `${b.key}: failed (${r.errors[0]})`.padEnd(44);
    return `${ms(r.liveMs).padStart(5)} ${ms(r.answerMs).padStart(6)} ${ms(r.stepP50).padStart(5)} ${ms(r.stepP95).padStart(5)}`.padEnd(
      26,
    );
  });
  console.log(
    `  ${`${row.path}${row[builds[0].key]?.atOpen ? ' *' : ''}`.padEnd(24)} ${`${row.rate}×`.padEnd(4)} ${cells.join(' │ ')}`,
  );
}
function printHeader(builds) {
  console.log(`  ${'page'.padEnd(24)} ${'cpu'.padEnd(4)} ${builds.map((b) => `${b.label}`.padEnd(26)).join(' │ ')}`);
  console.log(
    `  ${''.padEnd(24)} ${''.padEnd(4)} ${builds.map(() => `${'live'.padStart(5)} ${'answer'.padStart(6)} ${'p50'.padStart(5)} ${'p95'.padStart(5)}`.padEnd(26)).join(' │ ')}`,
  );
}

try {
  await waitForServer();
  const b = await resolveBrowser();
  const debugPort = 9333;
  const browser = await chromium.launch({
    executablePath: b.executablePath,
    args: [...b.args, `--remote-debugging-port=${debugPort}`],
  });
  const builds = [{ key: 'now', label: 'this build', origin }];
  if (withBaseline) {
    const ref = baselineRef();
    try {
      const base = baselineDist(ref, (m) => console.log(m));
      servers.push(await serveSite({ dir: base.dist, port: BASE_PORT, base: '' }));
      const at = `http://127.0.0.1:${BASE_PORT}`;
      await waitForServer(at);
      builds.push({
        key: 'baseline',
        label: base.sha.startsWith(ref) ? `baseline ${ref}` : `baseline ${ref} (${base.sha.slice(0, 7)})`,
        origin: at,
        sha: base.sha,
        ref,
      });
    } catch (e) {
      console.log(
        `\nBaseline ${ref}: not built (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); this build alone`,
      );
    }
  }
  console.log(
    `\nBrowser: live sooner (Chromium from ${b.source}; ${liveRuns} fresh visit(s) per cell, medians; ${liveSteps} Step forward presses per visit)`,
  );
  console.log(
    '  live: from the figure coming into view to its data-state "live …"; answer: to the first demo press changing its step;',
  );
  console.log(
    "  p50/p95: one Step forward press to the new step. All in ms. * the figure is within the island's margin when the page",
  );
  console.log(
    '  opens: its clock starts at navigation. 4×: Emulation.setCPUThrottlingRate on the page (Chromium throttles the',
  );
  console.log(
    '  page\'s main thread only; the worker runs unthrottled: "Operation is only supported for pages, not workers").',
  );
  console.log('  Targets (issue 26): answer ≤ 1,000 ms and each step ≤ 50 ms at 4×.');
  printHeader(builds);
  const rows = await liveSooner(browser, builds);
  console.log(
    `\nBrowser: a link to a figure's last moment, from coming into view to live at that step (ms; the replay runs in the worker)`,
  );
  console.log(`  ${'page'.padEnd(34)} ${'cpu'.padEnd(4)} ${builds.map((x) => x.label.padEnd(26)).join(' │ ')}`);
  const links = await linkOpens(browser, builds);
  mkdirSync('reports', { recursive: true });
  writeFileSync(
    'reports/bench-browser.json',
    JSON.stringify(
      {
        chromium: b.source,
        liveRuns,
        liveSteps,
        builds: builds.map(({ key, label, sha, ref }) => ({ key, label, sha, ref })),
        rows,
        links,
      },
      null,
      2,
    ) + '\n',
  );
  console.log('  (written to reports/bench-browser.json)');

  console.log(`\nBrowser: main-thread cost of one figure step (Chromium from ${b.source})`);
  // Two figures that open on the cluster's canvas and one that opens on its own panel (the requests' line).
  for (const path of ['/', '/reconcile-loop/', '/rolling-updates/']) {
    const page = await browser.newPage({ viewport: { width: 412, height: 860 } });
    await page.goto(origin + path);
    const fig = page.locator('[data-figure][data-state]').first();
    await fig.scrollIntoViewIfNeeded();
    await page.waitForFunction(() =>
      document.querySelector('[data-figure][data-state]')?.getAttribute('data-state')?.startsWith('live'),
    );
    await fig.locator('[data-demo]').first().focus();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const metrics = async () =>
      Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
    // The step is read through the DevTools protocol's DOM domain, not by script in the page, so
    // the harness adds no script of its own to what is measured.
    await cdp.send('DOM.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', {
      nodeId: root.nodeId,
      selector: '[data-figure][data-state]',
    });
    const stepNow = async () => {
      const { attributes } = await cdp.send('DOM.getAttributes', { nodeId });
      return attributes[attributes.indexOf('data-step') + 1];
    };
    const events = [];
    cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
    const traced = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
    await cdp.send('Tracing.start', {
      categories: 'devtools.timeline,v8.execute,disabled-by-default-devtools.timeline',
      transferMode: 'ReportEvents',
    });
    const layouts = [];
    const script = [];
    const styles = [];
    for (let i = 0; i < steps; i++) {
      const before = await metrics();
      const at = await stepNow();
      // One step forward (L): "next event that matters" now jumps several steps and stops at rest.
      await page.keyboard.press('l');
      for (let k = 0; k < 500 && (await stepNow()) === at; k++) await new Promise((r) => setTimeout(r, 10));
      // Let the frame that draws the new step, and the check after paint, finish.
      await new Promise((r) => setTimeout(r, 300));
      const after = await metrics();
      layouts.push(after.LayoutCount - before.LayoutCount);
      styles.push(after.RecalcStyleCount - before.RecalcStyleCount);
      script.push((after.ScriptDuration - before.ScriptDuration) * 1000);
    }
    await cdp.send('Tracing.end');
    await traced;
    const cpu = scriptCpuPerKeydown(events);
    line(
      `${path}: layouts per step (${steps} steps)`,
      `p50 ${pct(layouts, 0.5)}, max ${Math.max(...layouts)} (target ≤ 1)`,
    );
    line(`${path}: style recalculations per step`, `p50 ${pct(styles, 0.5)}, max ${Math.max(...styles)}`);
    line(
      `${path}: main-thread script per step (CPU)`,
      `p50 ${fmt(pct(cpu, 0.5), 2)} ms, p95 ${fmt(pct(cpu, 0.95), 2)} ms (target ≤ 8 ms)`,
    );
    line(
      `${path}: main-thread script per step (wall)`,
      `p50 ${fmt(pct(script, 0.5), 2)} ms, p95 ${fmt(pct(script, 0.95), 2)} ms (grows with the machine's load)`,
    );
    await page.close();
  }

  if (withLighthouse) {
    console.log('\nLighthouse (mobile) on every page with a live figure');
    const { default: lighthouse } = await import('lighthouse');
    for (const path of [
      '/',
      '/reconcile-loop/',
      '/control-plane/',
      '/scheduler/',
      '/rolling-updates/',
      '/node-failure/',
      '/control-plane-outage/',
      '/troubleshooting/',
    ]) {
      const result = await lighthouse(origin + path, {
        port: debugPort,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      });
      const lhr = result.lhr;
      const score = (c) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
      const audit = (a) => lhr.audits[a]?.numericValue ?? NaN;
      line(
        `${path}: performance / accessibility / best practices / SEO`,
        `${score('performance')} / ${score('accessibility')} / ${score('best-practices')} / ${score('seo')} (target ≥ 98)`,
      );
      line(
        `${path}: CLS, TBT, LCP`,
        `${fmt(audit('cumulative-layout-shift'), 3)}, ${fmt(audit('total-blocking-time'), 0)} ms (target ≤ 50), ${fmt(audit('largest-contentful-paint'), 0)} ms`,
      );
    }
  }
  await browser.close();
} finally {
  stop();
}
