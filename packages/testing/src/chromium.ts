import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DevToolsSession, type DevToolsEvent } from './devtools-session.js';

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

export interface ChromiumPage {
  /** Evaluates `expression` in the page (awaiting a promise) and returns its value as JSON. */
  evaluate<T>(expression: string): Promise<T>;
  /**
   * Evaluates `expression` once a second until `ready` holds for its value, and returns that value;
   * throws with the last value when `timeoutMs` passes first.
   */
  waitFor<T>(expression: string, ready: (value: T) => boolean, timeoutMs?: number): Promise<T>;
  /** Saves a PNG of the viewport to `path`. */
  screenshot(path: string): Promise<void>;
  /** A left click at (x, y) CSS pixels of the viewport, as the mouse makes it (pressed, released). */
  click(x: number, y: number): Promise<void>;
  /** Changes the viewport, e.g. to a phone's width (`mobile` emulates a touch screen's viewport rules). */
  resize(width: number, height: number, mobile?: boolean): Promise<void>;
  /** What the page reported as errors so far: uncaught exceptions, console errors, refused loads (CSP violations among them). */
  readonly problems: readonly string[];
  close(): Promise<void>;
}

/**
 * Opens `url` in headless Chromium over the DevTools protocol, in a viewport of `width` x `height`
 * CSS pixels. Every host but 127.0.0.1 is unresolvable, so a page that needs a CDN does not render.
 * The caller decides when the page is ready (waitFor) and closes it.
 */
export async function openInChromium(url: string, options: { width?: number; height?: number; webgl?: boolean } = {}): Promise<ChromiumPage> {
  const width = options.width ?? 1440;
  const height = options.height ?? 1600;
  // WebGL without a GPU: Chromium's software renderer, which it no longer picks by itself (map pages need it).
  const webgl = options.webgl ? ['--enable-unsafe-swiftshader', '--use-angle=swiftshader', '--ignore-gpu-blocklist'] : [];
  const profile = mkdtempSync(join(tmpdir(), 'stormhook-chromium-'));
  const browser = spawn(
    ensureChromium(),
    [
      '--headless',
      '--no-sandbox',
      ...(options.webgl ? [] : ['--disable-gpu']),
      '--disable-dev-shm-usage',
      ...webgl,
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
      `--window-size=${width},${height}`,
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const close = async () => {
    browser.kill('SIGKILL');
    // Chromium's helper processes may still be writing into the profile for a moment after the kill
    // (seen as ENOTEMPTY): retry the removal rather than fail a test that already passed.
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  };
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
    const target = targets.find((t) => t.type === 'page');
    if (!target) throw new Error('Chromium opened no page');
    const problems: string[] = [];
    const session = await DevToolsSession.connect(target.webSocketDebuggerUrl, (event) => {
      const problem = problemOf(event);
      if (problem) problems.push(problem);
    });
    await session.send('Page.enable');
    await session.send('Runtime.enable');
    await session.send('Log.enable');
    // The viewport exactly as asked (the window size alone leaves room for browser chrome), and a
    // foreground, focused page: renderers that draw in requestAnimationFrame or idle callbacks
    // otherwise stop short.
    await session.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
    await session.send('Page.bringToFront');
    await session.send('Emulation.setFocusEmulationEnabled', { enabled: true });
    await session.send('Page.navigate', { url });
    const evaluate = async <T>(expression: string): Promise<T> => {
      const evaluated = await session.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
      const thrown = evaluated['exceptionDetails'] as { exception?: { description?: string }; text?: string } | undefined;
      if (thrown) throw new Error(`in the page: ${thrown.exception?.description ?? thrown.text ?? 'an exception'}`);
      return (evaluated['result'] as { value?: unknown } | undefined)?.value as T;
    };
    return {
      evaluate,
      waitFor: async <T>(expression: string, ready: (value: T) => boolean, timeoutMs = 180_000) => {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const value = await evaluate<T>(expression);
          if (ready(value)) return value;
          if (Date.now() > deadline) throw new Error(`the page did not get ready in ${timeoutMs} ms; last state: ${JSON.stringify(value)}`);
          await new Promise((resolve) => setTimeout(resolve, 1_000));
        }
      },
      screenshot: async (path) => {
        const shot = await session.send('Page.captureScreenshot', { format: 'png' });
        writeFileSync(path, Buffer.from(String(shot['data'] ?? ''), 'base64'));
      },
      click: async (x, y) => {
        for (const type of ['mouseMoved', 'mousePressed', 'mouseReleased']) {
          await session.send('Input.dispatchMouseEvent', {
            type,
            x,
            y,
            button: type === 'mouseMoved' ? 'none' : 'left',
            clickCount: type === 'mouseMoved' ? 0 : 1,
          });
        }
      },
      resize: async (w, h, mobile = false) => {
        await session.send('Emulation.setDeviceMetricsOverride', { width: w, height: h, deviceScaleFactor: 1, mobile });
      },
      problems,
      close: async () => {
        session.close();
        await close();
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The error an event reports, if it reports one. */
function problemOf({ method, params }: DevToolsEvent): string | undefined {
  if (method === 'Runtime.exceptionThrown') {
    const details = params['exceptionDetails'] as { exception?: { description?: string }; text?: string } | undefined;
    return `exception: ${details?.exception?.description ?? details?.text ?? ''}`;
  }
  if (method === 'Runtime.consoleAPICalled' && params['type'] === 'error') {
    const args = (params['args'] as Array<{ value?: unknown; description?: string }> | undefined) ?? [];
    return `console.error: ${args.map((arg) => String(arg.value ?? arg.description ?? '')).join(' ')}`;
  }
  if (method === 'Log.entryAdded') {
    const entry = params['entry'] as { level?: string; text?: string; url?: string } | undefined;
    if (entry?.level === 'error') return `${entry.text ?? ''}${entry.url ? ` (${entry.url})` : ''}`;
  }
  return undefined;
}
