import { fork, type ChildProcess } from 'node:child_process';
import type { ReceiverAnswer, ReceiverCommand } from './bench-receivers.js';

/** The receivers' process (bench-receivers.ts): one question at a time over its IPC channel. */
export class Receivers {
  private asking: Promise<unknown> = Promise.resolve();

  private constructor(private readonly child: ChildProcess) {}

  static async start(endpoints: number, deadIndex: number): Promise<{ receivers: Receivers; ports: number[] }> {
    const child = fork(new URL('./bench-receivers.js', import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const receivers = new Receivers(child);
    const answer = await receivers.ask({ cmd: 'listen', endpoints, deadIndex });
    return { receivers, ports: (answer as { ports: number[] }).ports };
  }

  ask(command: ReceiverCommand): Promise<ReceiverAnswer> {
    const asked = this.asking.then(
      () =>
        new Promise<ReceiverAnswer>((resolve, reject) => {
          const onExit = (code: number | null): void => reject(new Error(`receivers exited (${code})`));
          this.child.once('exit', onExit);
          this.child.once('message', (reply: unknown) => {
            this.child.off('exit', onExit);
            resolve(reply as ReceiverAnswer);
          });
          this.child.send(command);
        }),
    );
    this.asking = asked.catch(() => undefined);
    return asked;
  }

  async count(): Promise<number> {
    return ((await this.ask({ cmd: 'count' })) as { count: number }).count;
  }

  async dump(): Promise<Map<string, number>> {
    return new Map(((await this.ask({ cmd: 'dump' })) as { received: [string, number][] }).received);
  }

  async close(): Promise<void> {
    await this.ask({ cmd: 'close' });
  }
}
