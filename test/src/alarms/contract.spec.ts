import assert from 'node:assert/strict';
import { ROUTES, buildOpenApiDocument } from '@stormhook/gateway';
import { FORECAST_THRESHOLDS } from '@stormhook/webhooks';

type Schema = Record<string, any>;

/**
 * The gateway's OpenAPI document against the alarm-matcher's rules: it lists the threshold table both
 * use (@stormhook/webhooks) with its numbers, and the filter and boundary fields carry their units and bounds.
 */
describe('alarm registration contract (OpenAPI against the alarm-matcher)', () => {
  const doc = buildOpenApiDocument(ROUTES) as Schema;
  const schemas = doc['components']['schemas'] as Record<string, Schema>;

  it('lists every value of the forecast threshold table with its number and unit', () => {
    const filter = schemas['ForecastAlarmFilter']!;
    for (const [field, scale] of Object.entries(FORECAST_THRESHOLDS)) {
      const property = filter['properties'][field] as Schema;
      assert.deepEqual(
        property['enum'],
        scale.values.map(([name]) => name),
        field,
      );
      for (const [name, value] of scale.values) assert.ok(property['description'].includes(`${name} ${value} ${scale.unit}`), `${field} documents ${name}`);
    }
  });

  it('documents the units and bounds of the weather filter (early-warning fields included) and the point radius', () => {
    const filter = schemas['WeatherAlarmFilter']!['properties'] as Record<string, Schema>;
    assert.match(filter['lightning']!['properties']['peakCurrent']['description'], /amperes.*absolute value/);
    assert.match(filter['lightning']!['properties']['inCloudHeight']['description'], /metres above mean sea level/);
    assert.match(filter['thunderstorm']!['properties']['speedThreshold']['description'], /km\/h, inclusive/);
    assert.match(filter['thunderstorm']!['properties']['severityThreshold']['description'], /LOW < MEDIUM < HIGH/);
    const ring = filter['lightning']!['properties']['approachRadius'] as Schema;
    assert.deepEqual([ring['type'], ring['minimum'], ring['maximum']], ['number', 500, 50000]);
    assert.match(ring['description'], /^metres, 500 to 50,000: .*lightning\.approaching/);
    for (const weather of ['thunderstorm', 'precipitation']) {
      // The early-warning stage the matcher validates the same way (weather-filter.ts): closed, leadMinutes required.
      const approach = filter[weather]!['properties']['approach'] as Schema;
      assert.equal(approach['additionalProperties'], false, weather);
      assert.deepEqual(approach['required'], ['leadMinutes'], weather);
      const lead = approach['properties']['leadMinutes'] as Schema;
      assert.deepEqual([lead['type'], lead['minimum'], lead['maximum']], ['integer', 5, 60], weather);
      assert.match(lead['description'], /^minutes, 5 to 60/, weather);
      assert.match(approach['description'], new RegExp(`${weather}\\.approaching.*${weather}\\.approach_cancelled.*${weather}\\.start`), weather);
    }
    const radius = schemas['PointAlarmBoundary']!['properties']['radius'] as Schema;
    assert.equal(radius['minimum'], 100);
    assert.equal(radius['maximum'], 200000);
    assert.match(radius['description'], /metres/);
  });

  it('documents the webhook rules of section 3 on every register and update, and the operator routes', () => {
    for (const kind of ['geometries', 'forecasts', 'points']) {
      for (const [path, method] of [
        [`/v1/alarms/${kind}/register`, 'post'],
        [`/v1/alarms/${kind}/update`, 'put'],
      ] as const) {
        const operation = doc['paths'][path][method] as Schema;
        assert.match(operation['description'], /PUT \/v1\/alarms\/webhooks\/update/, path);
        assert.ok(operation['responses']['409'], `${path} documents the 409`);
      }
    }
    assert.ok(doc['paths']['/v1/alarms/forecasts/thresholds']['get']);
    assert.match(doc['paths']['/v1/alarms/forecasts/run-slot']['post']['x-roles'], /ADMIN only/);
  });
});
