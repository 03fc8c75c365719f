import { appendFileSync } from 'node:fs';

/**
 * Runs beside a supervisor (`npm start`, `npm test`, the benchmarks), in a process group of its own,
 * connected to it by an IPC channel. The supervisor registers every process group it starts. When the
 * channel closes - the supervisor exited, crashed or was killed with SIGKILL - the groups still alive
 * are stopped, services before the infrastructure under them: SIGTERM, then SIGKILL after the grace.
 * Without it a supervisor that died left the Kafka broker and FerretDB running, and the next start
 * silently reused them.
 *
 * Messages: { op: 'watch', pgid, role: 'service' | 'infra', name } and { op: 'unwatch', pgid }.
 */
interface Watched {
  pgid: number;
  role: 'service' | 'infra';
  name: string;
}
type Message = ({ op: 'watch' } & Watched) | { op: 'unwatch'; pgid: number };

const GRACE_MS: Record<Watched['role'], number> = { service: 15_000, infra: 10_000 };
const logFile = process.argv[2];
const watched = new Map<number, Watched>();

function log(message: string): void {
  if (!logFile) return;
  try {
    appendFileSync(logFile, `${new Date().toISOString()} ${message}\n`);
  } catch {
    // nowhere left to say it
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function signal(pgid: number, name: NodeJS.Signals): void {
  try {
    process.kill(-pgid, name);
  } catch {
    // gone
  }
}

async function stopGroups(groups: readonly Watched[], graceMs: number): Promise<void> {
  const alive = groups.filter((g) => groupAlive(g.pgid));
  if (alive.length === 0) return;
  log(`stopping ${alive.map((g) => `${g.name} (group ${g.pgid})`).join(', ')}`);
  for (const g of alive) signal(g.pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && alive.some((g) => groupAlive(g.pgid))) await new Promise((r) => setTimeout(r, 200));
  for (const g of alive) {
    if (groupAlive(g.pgid)) log(`${g.name} outlived its ${graceMs} ms grace: SIGKILL`);
    signal(g.pgid, 'SIGKILL');
  }
}

async function supervisorGone(): Promise<void> {
  const all = [...watched.values()];
  if (all.some((g) => groupAlive(g.pgid))) log('the supervisor is gone; stopping what it left running');
  await stopGroups(
    all.filter((g) => g.role === 'service'),
    GRACE_MS.service,
  );
  // Infrastructure last and one by one, newest first, as the supervisor itself stops it.
  for (const g of all.filter((w) => w.role === 'infra').reverse()) await stopGroups([g], GRACE_MS.infra);
  process.exit(0);
}

// The signals that reach the supervisor's group must not end the watchdog before it has done its job.
for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(name, () => undefined);
process.on('message', (message: Message) => {
  if (message.op === 'watch') watched.set(message.pgid, { pgid: message.pgid, role: message.role, name: message.name });
  else watched.delete(message.pgid);
});
process.on('disconnect', () => void supervisorGone());
if (!process.connected) void supervisorGone();
