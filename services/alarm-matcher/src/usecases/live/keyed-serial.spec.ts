import assert from 'node:assert/strict';
import { KeyedSerial } from './keyed-serial.js';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('KeyedSerial', () => {
  it('runs work of one key one after another, even past a failure, and other keys alongside', async () => {
    const serial = new KeyedSerial();
    const log: string[] = [];
    const work =
      (name: string, ms: number, fail = false) =>
      async () => {
        log.push(`${name}+`);
        await tick(ms);
        log.push(`${name}-`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([serial.run('e1', work('a', 20, true)), serial.run('e1', work('b', 1)), serial.run('e2', work('c', 5))]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'fulfilled', 'fulfilled'],
    );
    assert.deepEqual(log, ['a+', 'c+', 'c-', 'a-', 'b+', 'b-']);
  });
});
