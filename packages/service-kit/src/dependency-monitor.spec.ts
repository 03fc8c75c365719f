import assert from 'node:assert/strict';
import { DependencyMonitor } from './dependency-monitor.js';

describe('DependencyMonitor', () => {
  it('reports changes only, naming the failing dependencies', async () => {
    let databaseUp = true;
    const changes: Array<[boolean, string[]]> = [];
    const monitor = new DependencyMonitor({
      checks: { kafka: async () => true, database: async () => databaseUp },
      onChange: (healthy, failing) => changes.push([healthy, failing]),
    });
    assert.equal(await monitor.checkNow(), true);
    assert.equal(await monitor.checkNow(), true);
    databaseUp = false;
    assert.equal(await monitor.checkNow(), false);
    databaseUp = true;
    assert.equal(await monitor.checkNow(), true);
    assert.deepEqual(changes, [
      [true, []],
      [false, ['database']],
      [true, []],
    ]);
  });

  it('counts a check that throws as failing', async () => {
    const monitor = new DependencyMonitor({
      checks: { kafka: () => Promise.reject(new Error('broker gone')) },
      onChange: () => undefined,
    });
    assert.equal(await monitor.checkNow(), false);
    assert.deepEqual(monitor.failingDependencies, ['kafka']);
  });
});
