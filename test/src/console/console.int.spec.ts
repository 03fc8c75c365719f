import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openInChromium, type ChromiumPage } from '@stormhook/testing';
import { ApiClient } from '../e2e/support/api-client.js';
import { createCustomer, type Customer } from '../e2e/support/customer.js';
import { repoRoot } from '../e2e/support/repo.js';
import { ADMIN } from '../support/api-session.js';
import { eventually, Receiver } from '../support/receiver.js';
import { startInProcessStack, type InProcessStack } from '../support/stack.js';
import { notifierTestEnv } from '../support/test-env.js';
import { clickButton, countPixels, mapBox, mapIdle, pixelOf, statusOf, type } from './console-page.js';
import { startSimulator } from './sim-feed.js';

/** Screenshots for people to look at; git-ignored (test/artifacts/). */
const ARTIFACTS = join(repoRoot, 'test', 'artifacts', 'console');
/** Central Ankara (Çankaya), under the simulator's demo thunderstorm. */
const ANKARA = { lng: 32.83, lat: 39.9 };

/**
 * The customer console (issue 25) in headless Chromium on a started stack with the feed simulator
 * running: sign in, storms on the map (pixels, not a blank canvas), an alarm registered by clicking
 * a district, shown on the map and in the list, its callback at a local receiver and in the health
 * view, a back-tested draft, the phone layout, and no console errors anywhere.
 */
describe('the console at /console, in a browser (issue 25)', function () {
  this.timeout(180_000);
  let stack: InProcessStack;
  let sim: { stop(): Promise<void> } | undefined;
  let receiver: Receiver;
  let customer: Customer;
  let page: ChromiumPage | undefined;
  const shot = (name: string) => join(ARTIFACTS, `${name}.png`);

  before(async function () {
    this.timeout(240_000);
    mkdirSync(ARTIFACTS, { recursive: true });
    stack = await startInProcessStack({ notifier: notifierTestEnv() });
    sim = startSimulator(stack.topicPrefix);
    receiver = new Receiver();
    await receiver.start();
    const api = new ApiClient(stack.baseUrl);
    const admin = await api.login(ADMIN.username, ADMIN.password);
    // The base map and the click-to-register need the boundaries (../shared/data/geo beside the checkout).
    const cities = await api.call('GET', '/v1/alarms/geometries/cities?simplifyTolerance=5000', { token: admin.accessToken });
    if (!Array.isArray(cities.body) || cities.body.length === 0) this.skip();
    customer = await createCustomer(api, admin.accessToken);
    // The simulator's backfill is through ingest and query: the console's first load then has storms.
    await eventually(
      async () => {
        const page = await api.call('POST', '/v1/thunderstorms/page', {
          token: customer.token,
          body: { backwardInterval: 1200, endTimeEpoch: Date.now(), pageNumber: 0, pageSize: 1 },
        });
        return Number(page.body['totalRecords'] ?? 0) > 0 ? true : undefined;
      },
      120_000,
      'the simulator storms in /v1/thunderstorms/page',
    );
    page = await openInChromium(`${stack.baseUrl}/console`, { width: 1280, height: 800, webgl: true });
  });

  after(async () => {
    await page?.close();
    await sim?.stop();
    await receiver?.stop();
    await stack?.stop();
  });

  it('serves the page and its bundle from the gateway, with a same-origin content security policy', async () => {
    const answer = await fetch(`${stack.baseUrl}/console`);
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    assert.match(await answer.text(), /\/console\/console\.js/);
    const worker = await fetch(`${stack.baseUrl}/console/maplibre-gl-worker.mjs`);
    assert.equal(worker.status, 200);
    assert.match(worker.headers.get('content-type') ?? '', /javascript/);
  });

  it('signs in with username and password and draws the boundaries and the simulator storms', async () => {
    const p = page!;
    await p.waitFor<boolean>(`Boolean(document.querySelector('input[name="username"]'))`, Boolean, 30_000);
    await type(p, 'input[name="username"]', customer.username);
    await type(p, 'input[name="password"]', customer.password);
    await clickButton(p, 'Sign in');
    const loaded = await eventuallyInPage(p, async () => {
      const s = await statusOf(p);
      return s && s.storms > 0 ? s : undefined;
    });
    assert.ok(loaded.storms > 0, `storms on the map: ${JSON.stringify(loaded)}`);
    assert.ok(await mapIdle(p), 'the map settles');
    await p.screenshot(shot('map-1280'));
    const pixels = await countPixels(p, shot('map-1280'), await mapBox(p));
    // Not a blank canvas: the storm cells and their predicted paths are drawn.
    assert.ok(pixels.storm > 20, `storm pixels: ${JSON.stringify(pixels)}`);
    assert.ok(pixels.path + pixels.storm > 40, `storm and path pixels: ${JSON.stringify(pixels)}`);
  });

  it('registers an alarm by clicking a district: in the list and on the map', async () => {
    const p = page!;
    await clickButton(p, 'New alarm: click an area');
    const at = await pixelOf(p, ANKARA.lng, ANKARA.lat);
    await p.click(at.x, at.y);
    await p.waitFor<boolean>(`Boolean(document.querySelector('form[aria-label="New alarm"]'))`, Boolean, 20_000);
    // The district the API locates there is the one the form offers.
    const located = await new ApiClient(stack.baseUrl).call('POST', '/v1/alarms/geometries/locate', { token: customer.token, body: { point: ANKARA } });
    const district = String((located.body['district'] as { name?: string } | null)?.name ?? '');
    assert.ok(district !== '', `a district at ${JSON.stringify(ANKARA)}: ${JSON.stringify(located.body)}`);
    const area = await p.evaluate<string>(`document.querySelector('input[name="level"]:checked')?.parentElement.textContent ?? ''`);
    assert.equal(area, `District: ${district}`);
    await type(p, 'input[name="recipientId"]', 'console-test-ankara');
    await type(p, 'input[name="webhookUrl"]', receiver.url('/console-hook'));
    await clickButton(p, 'Register alarm');
    const item = await p.waitFor<string>(`document.querySelector('.alarm-item')?.textContent ?? ''`, (t) => t.includes(district), 20_000);
    assert.match(item, /console-test-ankara/);
    const registrationId = await p.evaluate<string>(`document.querySelector('.alarm-item').dataset.registrationId`);
    // Drawn: the registrations source holds the district's outline, green on the screen.
    await p.evaluate(`void window.stormhookConsole.map.map.fitBounds([[32.5, 39.6], [33.2, 40.2]], { duration: 0 })`);
    assert.ok(await mapIdle(p));
    const drawn = await p.evaluate<number>(`window.stormhookConsole.map.map.querySourceFeatures('registrations').length`);
    assert.ok(drawn > 0, 'the alarm is on the map');
    await p.screenshot(shot('alarm-ankara'));
    const pixels = await countPixels(p, shot('alarm-ankara'), await mapBox(p));
    assert.ok(pixels.alarm > 50, `alarm outline pixels: ${JSON.stringify(pixels)}`);

    // The demo storm's lightning over Ankara reaches the receiver, and the Deliveries tab shows it.
    await eventually(() => (receiver.received.some((c) => c.body.includes(registrationId)) ? true : undefined), 90_000, `a callback of ${registrationId}`);
    await clickButton(p, 'Deliveries');
    const health = await p
      .waitFor<{ state: string; rows: number }>(
        `(() => ({ state: document.querySelector('[data-health-state]')?.dataset.healthState ?? '', rows: document.querySelectorAll('tr[data-notification-id]').length }))()`,
        (v) => v.state !== '' && v.rows > 0,
        30_000,
      )
      .catch(async () => {
        await clickButton(p, 'Reload', 'section[aria-label="Deliveries"]');
        return p.waitFor<{ state: string; rows: number }>(
          `(() => ({ state: document.querySelector('[data-health-state]')?.dataset.healthState ?? '', rows: document.querySelectorAll('tr[data-notification-id]').length }))()`,
          (v) => v.state !== '' && v.rows > 0,
          30_000,
        );
      });
    assert.equal(health.state, 'ENABLED');
    await p.screenshot(shot('deliveries'));
    // Redelivery of the first attempt listed: queued, and the receiver gets the callback again.
    const before = receiver.received.filter((c) => c.body.includes(registrationId)).length;
    await clickButton(p, 'Redeliver', 'table[aria-label="Deliveries"]');
    await p
      .waitFor<string>(
        `document.querySelector('section[aria-label="Deliveries"] p[role="status"]')?.textContent ?? ''`,
        (t) => /queued|Not redelivered/.test(t),
        20_000,
      )
      .then((t) => assert.match(t, /Redelivery of \S+ queued/));
    await eventually(
      () => (receiver.received.filter((c) => c.body.includes(registrationId)).length > before ? true : undefined),
      30_000,
      'the redelivered callback',
    );
    // Recovery's dry run counts what a recovery of every delivery of the last day would send.
    await p.evaluate(`document.querySelector('select[name="mode"]').value = 'all'`);
    await clickButton(p, 'Dry run');
    const dryRun = await p.waitFor<string>(`document.querySelector('.recovery')?.textContent ?? ''`, (t) => /Would send/.test(t), 20_000);
    assert.match(dryRun, /Would send [1-9]\d* callbacks?/);
  });

  it('edits the alarm’s filter and deletes it', async () => {
    const p = page!;
    await clickButton(p, 'Alarms');
    await clickButton(p, 'Edit', '.alarm-item');
    await p.waitFor<boolean>(`Boolean(document.querySelector('form[aria-label="Edit alarm"]'))`, Boolean, 10_000);
    await p.evaluate(`document.querySelector('select[name="severityThreshold"]').value = 'HIGH'`);
    await clickButton(p, 'Save changes');
    await p.waitFor<string>(`document.querySelector('.alarm-item')?.textContent ?? ''`, (t) => t.includes('storms ≥ HIGH'), 20_000);
    // The page asks before deleting; the test answers yes.
    await p.evaluate(`window.confirm = () => true`);
    await clickButton(p, 'Delete', '.alarm-item');
    await p.waitFor<number>(`document.querySelectorAll('.alarm-item').length`, (n) => n === 0, 20_000);
  });

  it('back-tests a draft point alarm, dropped with the keyboard, and draws its charts', async () => {
    const p = page!;
    await clickButton(p, 'Alarms');
    // This time with the keyboard: the map centred on the place, Enter drops the point there.
    await p.evaluate(`void window.stormhookConsole.map.map.jumpTo({ center: [${ANKARA.lng}, ${ANKARA.lat}] })`);
    await clickButton(p, 'New alarm: drop a point');
    await p.evaluate(`document.activeElement.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }))`);
    await p.waitFor<boolean>(`Boolean(document.querySelector('form[aria-label="New alarm"] input[name="radius"]'))`, Boolean, 10_000);
    await type(p, 'input[name="radius"]', '20000');
    await clickButton(p, 'Back-test 7 days');
    const result = await p.waitFor<{ heading: string; charts: number; error: string }>(
      `(() => ({ heading: document.querySelector('.backtest h3')?.textContent ?? '', charts: document.querySelectorAll('.backtest svg').length, error: document.querySelector('.backtest + p.error, div > p.error')?.textContent ?? '' }))()`,
      (v) => v.heading !== '' || v.error !== '',
      60_000,
    );
    assert.equal(result.error, '', result.error);
    assert.match(result.heading, /Back-test: \d+ callbacks? in \d+ days/);
    assert.ok(result.charts >= 1, `charts: ${result.charts}`);
    await p.screenshot(shot('backtest'));
    await clickButton(p, 'Cancel');
  });

  it('fits a phone-width screen', async () => {
    const p = page!;
    await p.resize(390, 844, true);
    await p.evaluate(`void window.stormhookConsole.map.resize()`);
    const overflow = await p.evaluate<number>(`document.documentElement.scrollWidth - window.innerWidth`);
    assert.ok(overflow <= 0, `horizontal overflow at 390 px: ${overflow}`);
    assert.ok(await mapIdle(p));
    await p.screenshot(shot('phone-390'));
    await p.resize(1280, 800);
  });

  it('signs out, and the page made no console errors', async () => {
    const p = page!;
    await clickButton(p, 'Sign out');
    await p.waitFor<boolean>(`Boolean(document.querySelector('input[name="username"]'))`, Boolean, 10_000);
    assert.deepEqual(p.problems, []);
  });
});

/** Polls a probe of the page for a minute. */
async function eventuallyInPage<T>(_page: ChromiumPage, probe: () => Promise<T | undefined>): Promise<T> {
  return eventually(probe, 60_000, 'the console to load the weather');
}
