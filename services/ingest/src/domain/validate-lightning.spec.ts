import assert from 'node:assert/strict';
import { lightning, NOW } from '../test-support/feed-fixtures.js';
import { DEFAULT_RULES } from './rules.js';
import { validateLightning } from './validate-lightning.js';

describe('validateLightning', () => {
  it('normalises a strike into a LightningEvent body keyed by its area', () => {
    const result = validateLightning(lightning(), NOW, DEFAULT_RULES);
    assert.ok(result.ok);
    const [event] = result.value.events;
    assert.deepEqual(event, {
      eventId: 'ltg_strike-1',
      sourceEventId: 'strike-1',
      areaKey: 'sxp',
      timeEpochMs: NOW - 5_000,
      type: 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND',
      location: { lng: 32.85, lat: 39.93 },
      peakCurrentAmperes: -24_000,
      multiplicity: 3,
    });
  });

  it('keeps the in-cloud height of in-cloud flashes only, and reads multiplicity 0 as 1', () => {
    const ic = validateLightning(lightning({ type: 'LIGHTNING_TYPE_FLASH_IN_CLOUD', inCloudHeightM: 7_500, multiplicity: 0 }), NOW, DEFAULT_RULES);
    assert.ok(ic.ok);
    assert.equal(ic.value.events[0]!.inCloudHeightM, 7_500);
    assert.equal(ic.value.events[0]!.multiplicity, 1);
    const cg = validateLightning(lightning({ inCloudHeightM: 7_500 }), NOW, DEFAULT_RULES);
    assert.ok(cg.ok);
    assert.equal(cg.value.events[0]!.inCloudHeightM, undefined);
  });

  it('rejects impossible values, naming each field', () => {
    const result = validateLightning(
      lightning({ type: 'LIGHTNING_TYPE_UNSPECIFIED', peakCurrentAmperes: 900_000, latitude: 91, multiplicity: 99 }),
      NOW,
      DEFAULT_RULES,
    );
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.match(result.reason, /type: is required/);
    assert.match(result.reason, /latitude: 91 degrees is outside -90 to 90/);
    assert.match(result.reason, /peak_current_amperes: 900000 A is outside -500000 to 500000 A/);
    assert.match(result.reason, /multiplicity: 99 strokes/);
  });

  it('rejects a strike outside the covered area', () => {
    const result = validateLightning(lightning({ latitude: 48.85, longitude: 2.35 }), NOW, DEFAULT_RULES);
    assert.equal(result.ok, false);
    if (!result.ok) assert.match(result.reason, /outside the covered area/);
  });
});
