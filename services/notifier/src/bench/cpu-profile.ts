import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';

/**
 * A CPU profile of one stretch of the benchmark (the deliveries, without start-up, set-up or the
 * bare-client ceiling that runs in the same process after them), written as a .cpuprofile for
 * Chrome DevTools or a summary script. `--cpu-prof` would profile the whole process.
 */
export async function startCpuProfile(): Promise<(path: string) => Promise<void>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  // 1 ms (the default) loses short per-delivery frames; 100 µs sees them at a few percent overhead.
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  return async (path: string) => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    await writeFile(path, JSON.stringify(profile));
  };
}
