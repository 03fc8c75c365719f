import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../paths.js';
import { DEFAULT_TIME_LIMIT_MINUTES, timeLimitMinutes } from './bench.js';

describe('npm run bench: the time limit of each benchmark', () => {
  it('is the default unless the benchmark declares its own', () => {
    assert.equal(timeLimitMinutes('/** a benchmark */'), DEFAULT_TIME_LIMIT_MINUTES);
    assert.equal(timeLimitMinutes(' * bench-time-limit: 45 min (why)'), 45);
    assert.equal(timeLimitMinutes('bench-time-limit:90min'), 90);
    assert.equal(timeLimitMinutes('bench-time-limit: 0 min'), 1);
  });

  it('the benchmarks that run past the default at their default sizes declare more, in their compiled form', () => {
    // The runner reads the compiled file: the directive must survive compilation.
    const city = readFileSync(join(repoRoot, 'test', 'dist', 'bench', 'city-storm-bench.js'), 'utf8');
    const health = readFileSync(join(repoRoot, 'services', 'notifier', 'dist', 'bench', 'webhook-health-bench.js'), 'utf8');
    assert.equal(timeLimitMinutes(city), 45);
    assert.equal(timeLimitMinutes(health), 90);
  });
});
