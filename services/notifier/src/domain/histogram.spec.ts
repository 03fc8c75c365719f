import assert from 'node:assert/strict';
import { addInto, emptyHistogram, histogramCount, LATENCY_BOUNDS_MS, observe, quantile } from './histogram.js';

describe('histogram', () => {
  it('answers percentiles to one bucket, never above the largest value seen', () => {
    const h = emptyHistogram();
    for (let ms = 1; ms <= 100; ms++) observe(h, LATENCY_BOUNDS_MS, ms); // 1..100 ms
    assert.equal(histogramCount(h), 100);
    // The true median is 50 ms, in the bucket (25, 50]: answered as its upper bound.
    assert.equal(quantile(h, LATENCY_BOUNDS_MS, 0.5), 50);
    // The true p95 is 95 ms, in (75, 100]: the bound 100, which is also the maximum.
    assert.equal(quantile(h, LATENCY_BOUNDS_MS, 0.95), 100);
    const one = emptyHistogram();
    observe(one, LATENCY_BOUNDS_MS, 130);
    assert.equal(quantile(one, LATENCY_BOUNDS_MS, 0.99), 130, 'capped at the maximum, not the bound 150');
  });

  it('puts values above the last bound in an overflow bucket answered by the maximum', () => {
    const h = emptyHistogram();
    observe(h, LATENCY_BOUNDS_MS, 90_000);
    assert.equal(quantile(h, LATENCY_BOUNDS_MS, 0.5), 90_000);
  });

  it('merges by adding counts, so instances and buckets sum exactly', () => {
    const a = emptyHistogram();
    const b = emptyHistogram();
    for (let i = 0; i < 90; i++) observe(a, LATENCY_BOUNDS_MS, 8);
    for (let i = 0; i < 10; i++) observe(b, LATENCY_BOUNDS_MS, 2_500);
    const sum = emptyHistogram();
    addInto(sum, a);
    addInto(sum, b);
    assert.equal(histogramCount(sum), 100);
    assert.equal(quantile(sum, LATENCY_BOUNDS_MS, 0.5), 10, 'the bucket (5, 10] holds the median');
    assert.equal(quantile(sum, LATENCY_BOUNDS_MS, 0.95), 2_500);
    assert.equal(quantile(emptyHistogram(), LATENCY_BOUNDS_MS, 0.5), null);
  });
});
