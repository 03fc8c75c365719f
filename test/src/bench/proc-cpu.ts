import { readFileSync } from 'node:fs';

/** Kernel clock ticks per second of /proc/<pid>/stat times (USER_HZ: 100 on every Linux build we run). */
const TICKS_PER_SECOND = 100;

/**
 * CPU microseconds (user + system) the given processes have used so far, from /proc. A process that
 * is gone counts 0: callers compare sums over the same, long-lived processes.
 */
export function cpuMicrosOf(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command name, which may itself hold spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
    } catch {
      // gone
    }
  }
  return (ticks * 1_000_000) / TICKS_PER_SECOND;
}
