/**
 * The console map benchmark (not a test; issue 25's bench row): frames per second of the console's
 * map in headless Chromium while lightning arrives at 1,000 strikes/s, target at least 30.
 *
 *   KAFKA_BROKERS=... MONGO_URL=... CONSOLE_BENCH_RATE=1000 CONSOLE_BENCH_SECONDS=20 node test/dist/bench/console-map-bench.js
 *
 * An in-process stack serves /console and the API; a customer signs in through the page. The strikes
 * are GET /v1/stream's `lightning` events as text/event-stream text, pushed through the console's own
 * stream parser and dispatch (StreamReader.inject: the path a network read takes after fetch) by a
 * timer in the page, 1/20 of a second's worth every 50 ms, spread over four storm areas. Generating
 * them in the page costs the page's main thread too, as parsing the real stream would.
 *
 * A frame is one render of the map (MapLibre's `render` event) with the map told to repaint
 * continuously, so each frame draws every layer (all the strikes of the last 10 minutes, fading) and
 * the figure is the rate the page sustains, not the rate of changes. Headless Chromium draws WebGL
 * in software (SwiftShader), on the CPU a real browser would leave to the GPU: a floor, not a ceiling.
 * So the bench first measures that ceiling on the same machine: a bare WebGL canvas of the same size
 * that only clears itself each frame. The map's rate is worth reading beside it.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { machineDescription, openInChromium, reportBench } from '@stormhook/testing';
import { clickButton, statusOf, type } from '../console/console-page.js';
import { ApiClient } from '../e2e/support/api-client.js';
import { createCustomer } from '../e2e/support/customer.js';
import { repoRoot } from '../e2e/support/repo.js';
import { ADMIN } from '../support/api-session.js';
import { eventually } from '../support/receiver.js';
import { startInProcessStack } from '../support/stack.js';

function positive(name: string, fallback: number): number {
  const text = process.env[name];
  const value = text === undefined || text === '' ? fallback : Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${text}"`);
  return value;
}
const rate = positive('CONSOLE_BENCH_RATE', 1000);
const seconds = positive('CONSOLE_BENCH_SECONDS', 20);
const WARMUP_S = 5;

/** In the page: a timer writing `rate` lightning events a second as SSE text into the console's stream reader. */
const FEED = (strikesPerSecond: number) => `(() => {
  const centres = [[32.85, 39.93], [29.0, 41.05], [35.3, 38.7], [39.7, 41.0]];
  let n = 0;
  const perTick = Math.max(1, Math.round(${strikesPerSecond} / 20));
  window.__benchFed = 0;
  window.__benchTimer = setInterval(() => {
    let text = '';
    const now = Date.now();
    for (let i = 0; i < perTick; i += 1) {
      const c = centres[n % centres.length];
      const data = {
        eventId: 'ltg_bench' + n, strikeId: 'bench-' + n, timeEpochMillis: now,
        dischargeType: n % 5 === 0 ? 'FLASH_CLOUD_TO_GROUND' : 'FLASH_IN_CLOUD',
        latitude: c[1] + (Math.random() - 0.5) * 0.6, longitude: c[0] + (Math.random() - 0.5) * 0.8,
        peakCurrent: -12000, inCloudHeight: null, multiplicity: { strokes: 1 }, revision: 1,
      };
      text += 'event: lightning\\nid: ltg_bench' + n + '.1\\ndata: ' + JSON.stringify(data) + '\\n\\n';
      n += 1;
    }
    window.stormhookConsole.stream.inject(text);
    window.__benchFed += perTick;
  }, 50);
})()`;

/** In the page: map renders and animation frames over `ms`, with the map repainting continuously. */
const MEASURE = (ms: number) => `new Promise((resolve) => {
  const map = window.stormhookConsole.map.map;
  let renders = 0, frames = 0, worst = 0, last = performance.now();
  const onRender = () => { renders += 1; };
  map.on('render', onRender);
  map.repaint = true;
  const fedBefore = window.__benchFed;
  const started = performance.now();
  const frame = (t) => {
    frames += 1; worst = Math.max(worst, t - last); last = t;
    if (t - started < ${ms}) requestAnimationFrame(frame);
    else {
      map.off('render', onRender);
      map.repaint = false;
      const elapsed = (t - started) / 1000;
      resolve({ renders: renders / elapsed, frames: frames / elapsed, worstFrameMs: worst, fed: (window.__benchFed - fedBefore) / elapsed, elapsed });
    }
  };
  requestAnimationFrame(frame);
})`;

/** Frames per second of a 1280x800 WebGL canvas doing nothing but clear itself: what this browser and machine allow. */
async function bareWebGlFrames(): Promise<number> {
  const page = await openInChromium('data:text/html,<canvas id=c width=1280 height=800 style="width:100vw;height:100vh"></canvas>', {
    width: 1280,
    height: 800,
    webgl: true,
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    return await page.evaluate<number>(`new Promise((resolve) => {
      const gl = document.getElementById('c').getContext('webgl2');
      let n = 0;
      const t0 = performance.now();
      const frame = (t) => { gl.clearColor(n % 2, 0, 0, 1); gl.clear(gl.COLOR_BUFFER_BIT); n += 1; if (t - t0 < 5000) requestAnimationFrame(frame); else resolve(n / ((t - t0) / 1000)); };
      requestAnimationFrame(frame);
    })`);
  } finally {
    await page.close();
  }
}

async function main(): Promise<void> {
  process.stdout.write(`console map bench: ${rate} strikes/s for ${seconds} s on ${machineDescription()}\n`);
  const ceiling = await bareWebGlFrames();
  process.stdout.write(`  bare WebGL canvas 1280x800 (clear only): ${ceiling.toFixed(1)} frames/s\n`);
  const stack = await startInProcessStack();
  const page = await (async () => {
    const api = new ApiClient(stack.baseUrl);
    const admin = await api.login(ADMIN.username, ADMIN.password);
    const customer = await createCustomer(api, admin.accessToken);
    const opened = await openInChromium(`${stack.baseUrl}/console`, { width: 1280, height: 800, webgl: true });
    await opened.waitFor<boolean>(`Boolean(document.querySelector('input[name="username"]'))`, Boolean, 30_000);
    await type(opened, 'input[name="username"]', customer.username);
    await type(opened, 'input[name="password"]', customer.password);
    await clickButton(opened, 'Sign in');
    await eventually(
      async () => ((await statusOf(opened)) && (await opened.evaluate<boolean>(`window.stormhookConsole.map.map.loaded()`)) ? true : undefined),
      60_000,
      'the console map',
    );
    return opened;
  })();
  try {
    const idle = await page.evaluate<{ renders: number; frames: number }>(MEASURE(3_000));
    await page.evaluate(FEED(rate));
    await new Promise((resolve) => setTimeout(resolve, WARMUP_S * 1000));
    const loaded = await page.evaluate<{ renders: number; frames: number; worstFrameMs: number; fed: number; elapsed: number }>(MEASURE(seconds * 1000));
    const drawn = await page.evaluate<number>(`window.stormhookConsole.weather.lightning(Date.now()).features.length`);
    const seen = (await statusOf(page))?.strikes ?? 0;
    await page.evaluate(`clearInterval(window.__benchTimer)`);
    const dir = join(repoRoot, 'test', 'artifacts', 'console');
    mkdirSync(dir, { recursive: true });
    await page.screenshot(join(dir, 'bench-lightning.png'));
    // MapLibre's own floor in this browser: the same map with every layer hidden (a clear and a composite).
    await page.evaluate(
      `(() => { const m = window.stormhookConsole.map.map; for (const l of m.getStyle().layers) m.setLayoutProperty(l.id, 'visibility', 'none'); })()`,
    );
    const empty = await page.evaluate<{ renders: number }>(MEASURE(5_000));
    process.stdout.write(
      `  idle map: ${idle.renders.toFixed(1)} renders/s (${idle.frames.toFixed(1)} animation frames/s)\n` +
        `  under ${loaded.fed.toFixed(0)} strikes/s: ${loaded.renders.toFixed(1)} renders/s, ${loaded.frames.toFixed(1)} animation frames/s, longest frame ${loaded.worstFrameMs.toFixed(0)} ms over ${loaded.elapsed.toFixed(1)} s\n` +
        `  strikes received ${seen}, features drawn at the end ${drawn} (flashes of the last 5 s and 5 km cells per minute)\n` +
        `  the same map with every layer hidden: ${empty.renders.toFixed(1)} renders/s\n` +
        `  problems reported by the page: ${page.problems.filter((p) => !/\/v1\/stream/.test(p)).length}\n`,
    );
    const note = `headless Chromium, software WebGL, 1280x800, ${loaded.fed.toFixed(0)} strikes/s injected through the console's stream parser (StreamReader.inject), ${seconds} s after ${WARMUP_S} s warm-up`;
    reportBench({ bench: 'console map', metric: 'map frames/s under lightning', value: Math.round(loaded.renders * 10) / 10, unit: 'frames/s', note });
    reportBench({
      bench: 'console map',
      metric: 'map frames/s idle',
      value: Math.round(idle.renders * 10) / 10,
      unit: 'frames/s',
      note: 'same page, no strikes',
    });
    reportBench({ bench: 'console map', metric: 'longest frame under lightning', value: Math.round(loaded.worstFrameMs), unit: 'ms', note });
    reportBench({
      bench: 'console map',
      metric: 'map frames/s, every layer hidden',
      value: Math.round(empty.renders * 10) / 10,
      unit: 'frames/s',
      note: 'same page after the strikes: what MapLibre costs a frame here before it draws anything',
    });
    reportBench({
      bench: 'console map',
      metric: 'bare WebGL canvas frames/s',
      value: Math.round(ceiling * 10) / 10,
      unit: 'frames/s',
      note: 'the ceiling of this browser on this machine: a 1280x800 WebGL canvas that only clears itself each frame',
    });
  } finally {
    await page.close();
    await stack.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
