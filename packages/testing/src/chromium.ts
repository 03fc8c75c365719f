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
  if (process.getuid?.() !== 0) throw new Error('Chromium is missing: install Debian\'s chromium package (apt-get install chromium)');
  log('installing Chromium with apt-get (Debian package chromium), once');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env, timeout: 300_000 });
  const install = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { encoding: 'utf8', env, timeout: 600_000 });
  const installed = found();
  if (install.status !== 0 || !installed) throw new Error(`apt-get install chromium failed: ${(install.stderr || install.stdout || '').slice(-2000)}`);
  return installed;
}
