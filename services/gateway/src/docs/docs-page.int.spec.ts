import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireRepoRoot } from '@stormhook/config';
import { ensureChromium, openInChromium, type ChromiumPage } from '@stormhook/testing';
import { serve, type RunningApp } from '../test-support/serve.js';

const repoRoot = (): string => requireRepoRoot(dirname(fileURLToPath(import.meta.url)));

/** An operation's summary and a callback's, as the reference titles their sections. */
const OPERATION = 'Create a user with a role and an initial password or an invitation';
const WEBHOOK = 'lightning.strike callback';

/** What the page shows while the renderer is still loading: Scalar's skeleton placeholders. */
const LOADING = '[class*="skeleton"], [class*="loading"], [aria-busy="true"]';

interface PageState {
  loading: number;
  /** The document's title, the first heading the reference draws. */
  title: boolean;
  sidebar: { operation: boolean; webhook: boolean };
  fonts: string;
}

/**
 * The sidebar entry titled `text`: the innermost element holding exactly that text (the reference
 * draws a section when it is navigated to, not before).
 */
const SIDEBAR_ENTRY = (text: string): string =>
  `[...document.querySelectorAll('aside li *')].filter((e) => e.textContent.trim() === ${JSON.stringify(text)}).pop()`;

/** The loading state: placeholders left, the title drawn, the sidebar's entries for the two sections. */
const STATE = `(() => ({
  loading: document.querySelectorAll(${JSON.stringify(LOADING)}).length,
  title: [...document.querySelectorAll('h1')].some((h) => h.textContent.trim() === 'Stormhook API'),
  sidebar: { operation: Boolean(${SIDEBAR_ENTRY(OPERATION)}), webhook: Boolean(${SIDEBAR_ENTRY(WEBHOOK)}) },
  fonts: document.fonts.status,
}))()`;

interface Shown {
  found: boolean;
  box?: { top: number; left: number; width: number; height: number };
  /** The element at the middle of the heading's box: the heading or a descendant when nothing covers it. */
  hit?: string;
  visible: boolean;
}

/**
 * Scrolls the section heading titled `text` to the middle of the viewport and asks the browser what is
 * drawn there: a heading under a loading overlay, of no size or off screen is not visible.
 */
const SHOWN = (text: string): string => `(() => {
  const heading = [...document.querySelectorAll('h1, h2, h3, h4')].find((h) => h.textContent.trim() === ${JSON.stringify(text)});
  if (!heading) return { found: false, visible: false };
  heading.scrollIntoView({ block: 'center', behavior: 'instant' });
  const r = heading.getBoundingClientRect();
  // The middle of the first line: a heading drawn inline over two lines has a gap between its lines.
  const line = heading.getClientRects()[0] ?? r;
  const hit = document.elementFromPoint(line.left + line.width / 2, line.top + line.height / 2);
  return {
    found: true,
    box: { top: r.top, left: r.left, width: r.width, height: r.height },
    hit: hit ? hit.tagName + '.' + String(hit.className) : 'nothing',
    visible: r.width > 0 && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && hit !== null && heading.contains(hit),
  };
})()`;

/** Clicks the sidebar entry titled `text`, as a reader would, and waits until its section's heading is on screen. */
async function navigate(page: ChromiumPage, text: string): Promise<Shown> {
  await page.evaluate(`${SIDEBAR_ENTRY(text)}.click()`);
  return page.waitFor<Shown>(SHOWN(text), (shown) => shown.visible, 30_000);
}

/** GET /docs in headless Chromium (Debian's package, installed by ensureChromium when missing). */
describe('API reference page /docs in headless Chromium', function () {
  this.timeout(15 * 60_000); // a first run may install Chromium
  let app: RunningApp;
  before(async () => {
    ensureChromium((m) => process.stdout.write(`      ${m}\n`));
    app = await serve();
  });
  after(() => app?.close());

  it('serves the page and the renderer from the gateway, with a policy that allows nothing else', async () => {
    const page = await fetch(`${app.baseUrl}/docs`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'self'; script-src 'self';/);
    assert.doesNotMatch(await page.text(), /https?:\/\//, 'the page names no other origin');
    const bundle = await fetch(`${app.baseUrl}/docs/assets/standalone.js`);
    assert.equal(bundle.status, 200);
    assert.ok((await bundle.arrayBuffer()).byteLength > 1_000_000, 'the renderer bundle itself');
  });

  describe('rendered', () => {
    let page: ChromiumPage;
    let ready: PageState;
    const artifacts = join(repoRoot(), '.stack', 'test-artifacts');
    before(async () => {
      mkdirSync(artifacts, { recursive: true });
      page = await openInChromium(`${app.baseUrl}/docs`, { width: 1440, height: 1600 });
      ready = await page.waitFor<PageState>(
        STATE,
        (state) => state.loading === 0 && state.title && state.sidebar.operation && state.sidebar.webhook && state.fonts === 'loaded',
        120_000,
      );
    });
    after(() => page?.close());

    it('finishes loading: no placeholder left, the title and the sidebar entries of an operation and a callback drawn', () => {
      assert.deepEqual(ready, { loading: 0, title: true, sidebar: { operation: true, webhook: true }, fonts: 'loaded' });
    });

    it("shows an operation's heading on screen, and keeps a screenshot of it", async () => {
      const shown = await navigate(page, OPERATION);
      assert.ok(shown.visible, `the operation's heading is drawn, uncovered: ${JSON.stringify(shown)}`);
      const screenshot = join(artifacts, 'docs-page.png');
      await page.screenshot(screenshot);
      process.stdout.write(`      screenshot: ${screenshot}\n`);
    });

    it("shows a webhook callback's heading on screen, under Webhooks, and keeps a screenshot of it", async () => {
      const shown = await navigate(page, WEBHOOK);
      assert.ok(shown.visible, `the callback's heading is drawn, uncovered: ${JSON.stringify(shown)}`);
      const order = await page.evaluate<string>(`document.body.innerText`);
      assert.match(order, new RegExp(`Webhooks[\\s\\S]*${WEBHOOK.replace('.', '\\.')}`), 'the callback is listed under Webhooks');
      const screenshot = join(artifacts, 'docs-webhook.png');
      await page.screenshot(screenshot);
      process.stdout.write(`      screenshot: ${screenshot}\n`);
    });

    it("offers none of the renderer's hosted services (AI chat, MCP, sharing), which need scalar.com", async () => {
      const text = await page.evaluate<string>('document.body.innerText');
      for (const control of ['Ask AI', 'Generate MCP', 'Share', 'Deploy', 'Developer Tools']) assert.ok(!text.includes(control), `no "${control}" control`);
    });

    it('loads nothing the policy refuses and reports no error', () => {
      assert.deepEqual(page.problems, []);
    });
  });
});
