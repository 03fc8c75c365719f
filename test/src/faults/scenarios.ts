import { infraControl } from './infra-control.js';
import { sleep, World, type Registration, type Tally } from './world.js';

export interface ScenarioResult extends Tally {
  scenario: string;
  pass: boolean;
  notes: string[];
}

/** Passes when nothing accepted was lost, every due notification arrived, and any 5xx was a 503. */
export function verdict(scenario: string, tally: Tally, notes: string[], extra = true): ScenarioResult {
  const pass = extra && tally.lost === 0 && tally.missingRegistrations === 0 && tally.status5xx === tally.status503;
  return { scenario, ...tally, pass, notes };
}

async function withWorld(name: string, matchers: number, body: (world: World) => Promise<ScenarioResult>): Promise<ScenarioResult> {
  const world = new World(name);
  try {
    await world.start(matchers);
    return await body(world);
  } finally {
    await world.stop();
  }
}

async function strikeAll(world: World, registrations: Registration[], gapMs = 0): Promise<string[]> {
  const ids: string[] = [];
  for (const r of registrations) {
    ids.push(await world.strike(r));
    if (gapMs) await sleep(gapMs);
  }
  return ids;
}

/** (1) kill -9 the notifier while deliveries are in retry (the receiver fails each first two attempts), then start a new one. */
export function notifierKill(): Promise<ScenarioResult> {
  return withWorld('notifier-kill', 1, async (world) => {
    world.receiver.failFirst = 2;
    const registrations = await world.registerMany(10);
    const due = await strikeAll(world, registrations);
    const deadline = Date.now() + 30_000;
    while (world.receiver.attempts.size < 5 && Date.now() < deadline) await sleep(100);
    const inRetry = [...world.receiver.attempts.values()].filter((n) => n <= 2).length;
    const killed = await world.notifier!.kill('SIGKILL');
    await world.startNotifier();
    const tally = await world.tally(registrations, due);
    return verdict('notifier kill -9 mid-retry', tally, [`killed (${String(killed)}) with ${inRetry} deliveries in retry`], killed === 'SIGKILL' && inRetry > 0);
  });
}

/** (2) stop the broker for ~10 s while strikes keep being published (the publisher retries), then restart it. */
export function kafkaRestart(): Promise<ScenarioResult> {
  return withWorld('kafka-restart', 1, async (world) => {
    const registrations = await world.registerMany(24);
    const due: string[] = [];
    const publishing = (async () => {
      for (const r of registrations) {
        due.push(await world.strike(r));
        await sleep(750);
      }
    })();
    await sleep(4_000);
    const stoppedAt = Date.now();
    await infraControl('stopKafka');
    await sleep(10_000);
    await infraControl('startKafka');
    const downMs = Date.now() - stoppedAt;
    await publishing;
    const tally = await world.tally(registrations, due, 120_000);
    return verdict('Kafka broker restart under load', tally, [`broker down ${(downMs / 1000).toFixed(1)} s`]);
  });
}

/** (3) stop FerretDB for 30 s under load: API calls answer 503 fast, nothing accepted is lost, services recover by themselves. */
export function databaseStop(): Promise<ScenarioResult> {
  return withWorld('db-stop', 1, async (world) => {
    const registrations = await world.registerMany(8);
    const due: string[] = [];
    due.push(...(await strikeAll(world, registrations.slice(0, 4))));
    await infraControl('stopDatabase');
    const outageEnd = Date.now() + 30_000;
    let slowest = 0;
    let tries = 0;
    let i = 4;
    while (Date.now() < outageEnd) {
      const began = Date.now();
      const { registration } = await world.register();
      slowest = Math.max(slowest, Date.now() - began);
      tries++;
      if (registration) registrations.push(registration);
      const pending = registrations[i];
      if (pending && i < 8) {
        due.push(await world.strike(pending));
        i++;
      }
      await sleep(2_000);
    }
    await infraControl('startDatabase');
    // Recovery without restarting a service: new registrations are accepted again and notified.
    let recovered: Registration | undefined;
    const recoverBy = Date.now() + 60_000;
    while (!recovered && Date.now() < recoverBy) {
      recovered = (await world.register()).registration;
      if (!recovered) await sleep(1_000);
    }
    if (recovered) {
      registrations.push(recovered);
      due.push(await world.strike(recovered));
    }
    const tally = await world.tally(registrations, due, 120_000);
    const failFast = slowest < 6_000;
    return verdict('database stopped 30 s under load', tally, [`${tries} registrations tried during the outage, ${tally.status503} answered 503, slowest ${slowest} ms`, recovered ? 'recovered without restart' : 'DID NOT RECOVER', `5xx by status ${JSON.stringify(Object.fromEntries(world.statuses5xx))}`, `children alive: ${world.children().map((c) => `${c.name}=${c.child.exitCode === null && c.child.signalCode === null}`).join(', ')}`], failFast && recovered !== undefined);
  });
}

/** (4) two matchers in one consumer group; kill -9 one while strikes flow: the other takes over its partitions. */
export function matcherKill(): Promise<ScenarioResult> {
  return withWorld('matcher-kill', 2, async (world) => {
    const registrations = await world.registerMany(20);
    const due = await strikeAll(world, registrations.slice(0, 10), 200);
    const killed = await world.matchers[1]!.kill('SIGKILL');
    due.push(...(await strikeAll(world, registrations.slice(10), 200)));
    const tally = await world.tally(registrations, due, 120_000);
    return verdict('alarm-matcher kill -9 (2 in group)', tally, [`second matcher killed (${String(killed)})`], killed === 'SIGKILL');
  });
}
