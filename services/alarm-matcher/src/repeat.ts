import type { Logger } from '@stormhook/logger';

export interface Repeating {
  stop(): Promise<void>;
}

/**
 * Runs `work` every `intervalMs` (the next run starts `intervalMs` after the previous one ended, so
 * runs never overlap); failures are logged and the next run tries again.
 */
export function repeat(name: string, intervalMs: number, work: () => Promise<unknown>, logger: Logger): Repeating {
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<unknown> | undefined;
  let stopped = false;
  const loop = (): void => {
    current = work()
      .catch((error: unknown) => logger.warn({ err: error, job: name }, 'background job failed; next run retries'))
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, intervalMs).unref();
      });
  };
  timer = setTimeout(loop, intervalMs).unref();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}
