// Loaded with `node --import` in front of a service's main.js: prints its memory and event-loop
// delay every 2 s on stderr, so the soak can report them per process without touching the service.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { processStats } from './process-stats.js';

const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
setInterval(() => {
  process.stderr.write(`FAULTS_STATS ${JSON.stringify(processStats(histogram))}\n`);
  histogram.reset();
}, 2_000).unref();
