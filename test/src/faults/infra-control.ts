/** Asks the devstack `faults` command (the parent, over IPC) to stop or start the private broker or database. */
export type InfraOp = 'stopKafka' | 'startKafka' | 'stopDatabase' | 'startDatabase';

let next = 0;

export function infraControlAvailable(): boolean {
  return typeof process.send === 'function';
}

export function infraControl(op: InfraOp): Promise<void> {
  if (!process.send) return Promise.reject(new Error('no IPC channel: run the fault tests with `npm run faults`'));
  const id = ++next;
  return new Promise((resolve, reject) => {
    const onMessage = (message: { id?: number; ok?: boolean; error?: string }) => {
      if (message.id !== id) return;
      process.off('message', onMessage);
      if (message.ok) resolve();
      else reject(new Error(`${op}: ${message.error ?? 'failed'}`));
    };
    process.on('message', onMessage);
    process.send!({ id, op });
  });
}
