import { createLogger, type Logger } from '@stormhook/logger';

export interface Stoppable {
  stop(): Promise<void>;
}

export interface RunMainOptions {
  /** How long a graceful stop may take before the process exits anyway. */
  stopTimeoutMs?: number;
  logger?: Logger;
}

/**
 * The body of every service's main.ts: start (a bad config or an unreachable dependency is logged
 * as fatal and exits 1), then stop cleanly on SIGTERM or SIGINT, which Kubernetes and the dev stack
 * send, exiting non-zero if the stop fails or takes longer than `stopTimeoutMs`.
 */
export function runMain(service: string, start: () => Promise<Stoppable>, opts: RunMainOptions = {}): void {
  const logger = opts.logger ?? createLogger({ service, level: process.env['LOG_LEVEL'] || 'info' });
  const stopTimeoutMs = opts.stopTimeoutMs ?? 20_000;
  process.on('unhandledRejection', (reason) => {
    logger.fatal({ err: reason }, 'unhandled promise rejection');
    process.exit(1);
  });
  let stopping = false;
  let running: Stoppable | undefined;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    const timer = setTimeout(() => {
      logger.error({ stopTimeoutMs }, 'graceful stop timed out; exiting');
      process.exit(1);
    }, stopTimeoutMs);
    timer.unref();
    (running ? running.stop() : Promise.resolve()).then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'stop failed');
        process.exit(1);
      },
    );
  };
  // `on`, not `once`: a second signal (Ctrl-C in the terminal and the supervisor's SIGTERM) must not
  // end the process by default action halfway through its graceful stop.
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  start().then(
    (service) => {
      running = service;
      logger.info('started');
    },
    (error: unknown) => {
      logger.fatal({ err: error }, `start failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
