import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

function found(): string | undefined {
  return CANDIDATES.find((path) => existsSync(path));
}

/**
 * The path of a headless-capable Chromium for browser tests: Debian's `chromium` package, installed
 * here with apt-get when it is missing and we are root (CI and the development machines are), so no
 * test depends on a browser someone installed by hand. Throws, saying what to install, otherwise.
 */
export function ensureChromium(log: (message: string) => void = () => {}): string {
  const existing = found();
  if (existing) return existing;
  if (process.getuid?.() !== 0) throw new Error("Chromium is missing: install Debian's chromium package (apt-get install chromium)");
  log('installing Chromium with apt-get (Debian package chromium), once');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env, timeout: 300_000 });
  const install = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { encoding: 'utf8', env, timeout: 600_000 });
  const installed = found();
  if (install.status !== 0 || !installed) throw new Error(`apt-get install chromium failed: ${(install.stderr || install.stdout || '').slice(-2000)}`);
  return installed;
}

export interface RenderedPage {
  /** document.body.innerText: the text a reader sees (hidden elements excluded). */
  visibleText: string;
}

/**
 * Opens `url` in headless Chromium over the DevTools protocol, waits until the visible text satisfies
 * `ready` (the page renders in script after loading), saves a PNG screenshot of the viewport to
 * `screenshot`, and closes the browser. Every host but 127.0.0.1 is unresolvable, so a page that
 * needs a CDN does not render.
 */
export async function renderInChromium(
  url: string,
  options: { ready: (text: string) => boolean; screenshot: string; timeoutMs?: number },
): Promise<RenderedPage> {
  const { spawn } = await import('node:child_process');
  const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const profile = mkdtempSync(join(tmpdir(), 'stormhook-chromium-'));
  const browser = spawn(
    ensureChromium(),
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
      '--window-size=1440,1800',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const deadline = Date.now() + (options.timeoutMs ?? 180_000);
  try {
    const endpoint = await new Promise<string>((resolve, reject) => {
      let seen = '';
      browser.stderr.on('data', (chunk: Buffer) => {
        seen += chunk.toString('utf8');
        const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
        if (match?.[1]) resolve(match[1]);
      });
      browser.once('exit', (code) => reject(new Error(`Chromium exited (${code}) before DevTools answered: ${seen.slice(-1000)}`)));
    });
    const port = new URL(endpoint).port;
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{ type: string; webSocketDebuggerUrl: string }>;
    const page = targets.find((t) => t.type === 'page');
    if (!page) throw new Error('Chromium opened no page');
    const socket = new WebSocket(page.webSocketDebuggerUrl);
    await new Promise<void>((resolve, reject) => {
      socket.onopen = () => resolve();
      socket.onerror = () => reject(new Error('DevTools socket failed'));
    });
    let next = 0;
    const pending = new Map<number, (result: Record<string, unknown>) => void>();
    socket.onmessage = (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, unknown>; error?: unknown };
      if (message.id !== undefined) pending.get(message.id)?.(message.result ?? { error: message.error });
    };
    const send = (method: string, params: Record<string, unknown> = {}) =>
      new Promise<Record<string, unknown>>((resolve) => {
        const id = ++next;
        pending.set(id, resolve);
        socket.send(JSON.stringify({ id, method, params }));
      });
    await send('Page.enable');
    // A foreground, focused page: renderers that draw in requestAnimationFrame or idle callbacks
    // otherwise leave their loading placeholders in the picture.
    await send('Page.bringToFront');
    await send('Emulation.setFocusEmulationEnabled', { enabled: true });
    await send('Page.navigate', { url });
    let text = '';
    while (Date.now() < deadline) {
      const evaluated = await send('Runtime.evaluate', { expression: 'document.body ? document.body.innerText : ""', returnByValue: true });
      text = String((evaluated['result'] as { value?: unknown } | undefined)?.value ?? '');
      if (options.ready(text)) break;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    // A moment for the layout to settle after the text appeared, then the picture.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const shot = await send('Page.captureScreenshot', { format: 'png' });
    writeFileSync(options.screenshot, Buffer.from(String(shot['data'] ?? ''), 'base64'));
    socket.close();
    return { visibleText: text };
  } finally {
    browser.kill('SIGKILL');
    // Chromium's helper processes may still be writing into the profile for a moment after the kill
    // (seen as ENOTEMPTY): retry the removal rather than fail a test that already passed.
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}
