import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from '../paths.js';

const lockFile = () => join(paths.run, 'supervisor.lock');

/** One stack per checkout: a second `npm start` must not reap the first one's processes. */
export function acquireSupervisorLock(): { release(): void } {
  mkdirSync(paths.run, { recursive: true });
  if (existsSync(lockFile())) {
    const pid = Number(readFileSync(lockFile(), 'utf8'));
    if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
      throw new Error(`a Stormhook stack is already running from this checkout (supervisor pid ${pid}); stop it with Ctrl-C first`);
    }
  }
  writeFileSync(lockFile(), String(process.pid));
  return { release: () => rmSync(lockFile(), { force: true }) };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
