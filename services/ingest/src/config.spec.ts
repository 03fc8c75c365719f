import assert from 'node:assert/strict';
import { localInternalKeys } from '@stormhook/grpc';
import { loadConfig, rulesFromConfig } from './config.js';

const KEYS = { INTERNAL_PUBLIC_KEYS: localInternalKeys({}).INTERNAL_PUBLIC_KEYS, KAFKA_USERNAME: 'ingest', KAFKA_PASSWORD: 'ingest-password' };

describe('ingest config', () => {
  it('has defaults that give the documented rules', () => {
    const rules = rulesFromConfig(loadConfig({ ...KEYS }));
    assert.deepEqual(rules, {
      maxFutureSkewMs: 600_000,
      maxNowcastLeadMs: 21_600_000,
      maxAgeMs: 604_800_000,
      coverage: { minLng: 23, minLat: 32, maxLng: 48, maxLat: 45 },
      maxVertices: 20_000,
    });
  });

  it('reads the coverage box and rejects an inverted one by name', () => {
    assert.deepEqual(rulesFromConfig(loadConfig({ ...KEYS, INGEST_COVERAGE_BBOX: '25.5,35,45,43' })).coverage, {
      minLng: 25.5,
      minLat: 35,
      maxLng: 45,
      maxLat: 43,
    });
    assert.throws(() => loadConfig({ ...KEYS, INGEST_COVERAGE_BBOX: '45,35,25,43' }), /INGEST_COVERAGE_BBOX must be minLng,minLat,maxLng,maxLat/);
    assert.throws(() => loadConfig({ ...KEYS, INGEST_COVERAGE_BBOX: 'turkey' }), /INGEST_COVERAGE_BBOX/);
  });
});
