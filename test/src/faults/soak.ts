import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Stats } from './children.js';
import { processStats } from './process-stats.js';
import { verdict, type ScenarioResult } from './scenarios.js';
import { sleep, World, type Registration } from './world.js';

export interface SoakResult {
  result: ScenarioResult;
  /** Per process: figures at start and at end. */
  stats: Array<{ process: string; start: Stats | undefined; end: Stats | undefined }>;
}

/**
 * (5) Moderate steady load for `minutes`: every second one API read, and every two seconds a new
 * point alarm plus the strike that triggers it. Memory and event-loop delay of each process are
 * taken once warm (after 10 s) and at the end.
 */
export async function soak(minutes: number): Promise<SoakResult> {
  const world = new World('soak');
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  try {
    await world.start(1);
    const snapshot = () => {
      const own = processStats(histogram);
      histogram.reset();
      return new Map<string, Stats | undefined>([['in-process: gateway+identity+geo+runner', own], ...world.children().map((c) => [c.name, c.stats] as const)]);
    };
    const registrations: Registration[] = [];
    const due: string[] = [];
    const end = Date.now() + minutes * 60_000;
    let start: Map<string, Stats | undefined> | undefined;
    const began = Date.now();
    let tick = 0;
    while (Date.now() < end) {
      if (!start && Date.now() - began > 10_000) start = snapshot();
      if (tick % 2 === 0) {
        const { registration } = await world.register();
        if (registration) {
          registrations.push(registration);
          due.push(await world.strike(registration));
        }
      }
      const last = registrations.at(-1);
      if (last) await world.call('GET', `/v1/alarms/points/get-by-recipient-id/${last.recipientId}`).catch(() => undefined);
      tick++;
      await sleep(1_000);
    }
    await sleep(2_500); // a fresh stats line from every child
    const endStats = snapshot();
    start ??= endStats;
    const tally = await world.tally(registrations, due, 60_000);
    const stats = [...endStats.keys()].map((name) => ({ process: name, start: start.get(name), end: endStats.get(name) }));
    return { result: verdict(`soak ${minutes} min`, tally, [`${registrations.length} alarms, ${tick} API reads`]), stats };
  } finally {
    histogram.disable();
    await world.stop();
  }
}
