import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { freePort, freePortBlock } from './free-ports.js';

describe('free ports for processes a test starts', () => {
  it('picks blocks below the ephemeral range that can all be bound', async () => {
    for (let i = 0; i < 20; i++) {
      const base = await freePortBlock(10);
      assert.ok(base >= 20_000 && base + 10 <= 32_768, `${base} lies below 32768`);
      const servers = [];
      for (let port = base; port < base + 10; port++) {
        const server = createServer();
        await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
        servers.push(server);
      }
      for (const server of servers) await new Promise((resolve) => server.close(resolve));
    }
  });

  it('never hands out a port that is taken', async () => {
    const taken = await freePort();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(taken, '127.0.0.1', resolve));
    try {
      for (let i = 0; i < 200; i++) assert.notEqual(await freePort(), taken);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses a block size it cannot mean', async () => {
    await assert.rejects(freePortBlock(0), /count 0/);
  });
});
