import assert from 'node:assert/strict';
import { EventTypes, TopicNames } from '@stormhook/kafka';
import { feedV1 } from '@stormhook/proto';
import { HOUR, PLACES, square } from './fixtures.js';
import { eventually, startWeatherStack, type WeatherStack } from './support.js';

const MINUTE = 60_000;

/**
 * The whole data path: feed records published to the real Kafka, validated and normalised by the
 * real ingest, consumed by query, read through the gateway.
 */
describe('feed records to the gateway (ingest, query, real Kafka and database)', function () {
  this.timeout(120_000);
  let stack: WeatherStack;
  let token: string;
  const radarTime = Math.floor(Date.now() / MINUTE) * MINUTE - 5 * MINUTE;
  const hour = Math.floor(Date.now() / HOUR) * HOUR;

  const observation = (version: number, rainRate: number): feedV1.PrecipitationObservation => ({
    sourceEventId: 'radar-ank-1',
    version,
    updatedEpochMs: 0,
    radarTimestampEpochMs: radarTime,
    forecast: false,
    rainRateMmPerH: rainRate,
    // Clockwise on purpose: ingest re-orients it.
    geometry: { polygons: [{ exterior: { points: [...square(PLACES.ankara, 0.2).points].reverse() }, holes: [] }] },
    motion: { speedKmh: 30, directionDeg: 90 },
  });

  const grid: feedV1.ForecastGrid = {
    runId: 'feed-run-1',
    version: 0,
    updatedEpochMs: 0,
    model: 'feed-model',
    issueEpochMs: hour - HOUR,
    chunkIndex: 0,
    chunkCount: 1,
    firstHourEpochMs: hour,
    hourCount: 24,
    cells: [
      {
        cellId: '41.000N_29.000E',
        latitude: 41.0,
        longitude: 29.0,
        elevationM: 35,
        series: [{ metric: 'FORECAST_METRIC_TEMPERATURE', values: Array.from({ length: 24 }, (_, h) => 15 + h) }],
      },
      {
        cellId: '39.950N_32.850E',
        latitude: 39.95,
        longitude: 32.85,
        elevationM: 900,
        series: [{ metric: 'FORECAST_METRIC_TEMPERATURE', values: Array.from({ length: 24 }, () => 3) }],
      },
    ],
  };

  const publishFeed = async (
    topic: typeof TopicNames.FeedPrecipitation | typeof TopicNames.FeedForecast,
    key: string,
    value: Uint8Array,
    eventType: (typeof EventTypes)[keyof typeof EventTypes],
  ) => stack.publish(topic, eventType, [{ key, value }]);

  before(async () => {
    stack = await startWeatherStack({ withIngest: true });
    token = (await stack.user('API_USER', 'BASIC_MONTHLY')).token;
  });
  after(async () => {
    await stack?.stop();
  });

  const list = () =>
    stack.call('POST', '/v1/precipitations/page', { token, body: { backwardInterval: 3600, endTimeEpoch: radarTime + MINUTE, pageNumber: 0, pageSize: 100 } });

  it('lists a radar observation once, classified from its rain rate, however often it is re-sent, and shows its update', async () => {
    const value = feedV1.PrecipitationObservation.encode(observation(1, 12));
    for (let i = 0; i < 3; i++) await publishFeed(TopicNames.FeedPrecipitation, 'radar-ank-1', value, EventTypes.PrecipitationObservation);
    const first = await eventually(async () => {
      const answer = await list();
      return answer.body.totalRecords === 1 ? answer : undefined;
    }, 'the observation to reach the list');
    assert.deepEqual(first.body.precipitations, [{ eventId: 'prc_radar-ank-1', radarTimeStamp: radarTime, forecast: false, intensity: 'HEAVY' }]);

    await publishFeed(
      TopicNames.FeedPrecipitation,
      'radar-ank-1',
      feedV1.PrecipitationObservation.encode(observation(2, 60)),
      EventTypes.PrecipitationObservation,
    );
    const updated = await eventually(async () => {
      const answer = await list();
      return answer.body.precipitations[0]?.intensity === 'EXTREME' ? answer : undefined;
    }, 'the update to reach the list');
    assert.equal(updated.body.totalRecords, 1);
  });

  it('answers the current forecast of İstanbul from a forecast grid sent to the feed', async () => {
    await publishFeed(TopicNames.FeedForecast, `${grid.runId}#0`, feedV1.ForecastGrid.encode(grid), EventTypes.ForecastGrid);
    const answer = await eventually(async () => {
      const a = await stack.call('POST', '/v1/forecasts/current', {
        token,
        body: { location: PLACES.istanbul, metrics: ['TEMPERATURE', 'HUMIDITY', 'SOIL_MOISTURE'] },
      });
      return a.status === 200 ? a : undefined;
    }, 'the forecast to reach query');
    assert.equal(answer.body.timezone, 'Europe/Istanbul');
    assert.equal(answer.body.gridCell.id, '41.000N_29.000E');
    assert.equal(answer.body.elevation, 35);
    assert.equal(answer.body.model, 'feed-model');
    const temperature = answer.body.metricForecasts[0];
    assert.equal(temperature.metric, 'TEMPERATURE');
    // The value follows the hour answered, which may be an hour after the run was built.
    assert.equal(temperature.forecasts[0].value, 15 + (temperature.forecasts[0].epochMillis - hour) / HOUR);
    assert.deepEqual(answer.body.warnings, [
      'Metric HUMIDITY is not provided by the forecast model feed-model (missing HUMIDITY)',
      'Metric not valid for this request: SOIL_MOISTURE',
    ]);
  });
});
