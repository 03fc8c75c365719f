import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { logLevel } from 'kafkajs';
import { createLogger } from '@stormhook/logger';
import { kafkajsLogCreator } from './client.js';

function capture(): { lines: Array<Record<string, unknown>>; log: ReturnType<ReturnType<typeof kafkajsLogCreator>> } {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const logger = createLogger({ service: 'kafka-spec', level: 'debug', destination });
  return { lines, log: kafkajsLogCreator(logger)(logLevel.DEBUG) };
}

describe('kafkajsLogCreator', () => {
  it('maps kafkajs levels onto the logger and keeps the fields', async () => {
    const { lines, log } = capture();
    log({ namespace: 'Runner', level: logLevel.ERROR, label: 'ERROR', log: { timestamp: 't', message: 'crash', groupId: 'g' } });
    log({ namespace: 'Runner', level: logLevel.WARN, label: 'WARN', log: { timestamp: 't', message: 'slow' } });
    log({ namespace: 'Runner', level: logLevel.DEBUG, label: 'DEBUG', log: { timestamp: 't', message: 'fetch' } });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      lines.map((l) => [l['level'], l['msg']]),
      [
        ['error', 'crash'],
        ['warn', 'slow'],
        ['debug', 'fetch'],
      ],
    );
    assert.equal(lines[0]?.['groupId'], 'g');
    assert.equal(lines[0]?.['kafkajs'], 'Runner');
  });

  it('demotes the rebalance notices of a healthy group from error to info', async () => {
    const { lines, log } = capture();
    log({
      namespace: 'Connection',
      level: logLevel.ERROR,
      label: 'ERROR',
      log: { timestamp: 't', message: 'Response Heartbeat(key: 12, version: 3)', error: 'The group is rebalancing, so a rejoin is needed' },
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(lines[0]?.['level'], 'info');
  });
});
