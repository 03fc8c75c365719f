import assert from 'node:assert/strict';
import { LIGHTNING_WINDOW_MS, WeatherState } from '@stormhook/console/map/weather-state';

const NOW = 1_795_788_000_000;

function strike(n: number, ms: number, lng = 32.85, lat = 39.93) {
  return {
    eventId: `ltg_${n}`,
    strikeId: `s${n}`,
    timeEpochMillis: ms,
    dischargeType: 'FLASH_CLOUD_TO_GROUND' as const,
    latitude: lat,
    longitude: lng,
    peakCurrent: -10_000,
    inCloudHeight: null,
    multiplicity: { strokes: 1 },
    revision: 1,
  };
}

const square = (lng: number, lat: number) => ({
  exterior: [
    { lng, lat },
    { lng: lng + 0.1, lat },
    { lng: lng + 0.1, lat: lat + 0.1 },
    { lng, lat },
  ],
  holes: [],
});

describe("the console's live weather state", () => {
  it('draws new strikes as flashes and older ones per 5 km cell and minute, fading, gone after 10 minutes', () => {
    const state = new WeatherState();
    for (let i = 0; i < 50; i += 1) state.strike(strike(i, NOW - 3 * 60_000));
    state.strike(strike(50, NOW - 1_000));
    state.strike(strike(51, NOW - LIGHTNING_WINDOW_MS - 60_000));
    state.prune(NOW);
    const features = state.lightning(NOW).features.map((f) => f.properties);
    const flashes = features.filter((p) => p['kind'] === 'flash');
    const bins = features.filter((p) => p['kind'] === 'bin');
    assert.equal(flashes.length, 1, 'only the strike of the last seconds flashes');
    assert.deepEqual(
      bins.map((b) => [b['ageMin'], b['count']]).sort(),
      [
        // NOW is on a minute boundary: the strike of a second ago belongs to the minute before.
        [1, 1],
        [3, 50],
      ],
      'fifty strikes in one cell and minute are one point; the 11-minute-old strike is gone',
    );
    assert.equal(state.strikesSeen, 52);
  });

  it('keeps the newest revision of a storm, with the stream’s predicted path, and forgets a storm not seen for 20 minutes', () => {
    const state = new WeatherState();
    const storm = {
      eventId: 'tst_1',
      insertedAtEpoch: NOW,
      eventStartUtcEpoch: NOW - 600_000,
      eventEndUtcEpoch: NOW,
      severity: 'HIGH',
      threshold: 1,
      meta: { country: 'TUR', state: 'Ankara', city: 'Ankara', speedUnit: 'km/h', speed: 30 },
      cell: {
        area: 10,
        speed: 30,
        direction: 90,
        flashRates: { inCloud: 1, cloudToGround: 1, total: 2 },
        centroid: { lng: 32.85, lat: 39.93 },
        polygon: square(32.8, 39.9),
      },
      threatPolygon: square(32.8, 39.9),
      revision: 2,
      motion: { speedKmh: 30, towardDeg: 90, fromDeg: 270, source: 'FEED' as const },
      predictedPath: {
        method: 'LINEAR_EXTRAPOLATION' as const,
        issuedEpochMillis: NOW,
        horizonMinutes: 60,
        stepMinutes: 30,
        points: [
          { minutesAhead: 0, epochMillis: NOW, centroid: { lng: 32.85, lat: 39.93 } },
          { minutesAhead: 30, epochMillis: NOW + 1_800_000, centroid: { lng: 33.0, lat: 39.93 } },
          { minutesAhead: 60, epochMillis: NOW + 3_600_000, centroid: { lng: 33.2, lat: 39.93 } },
        ],
        polygonAtHorizon: square(33.15, 39.9),
      },
    };
    state.thunderstormFromStream(storm);
    // An older revision arriving late does not replace the newer one.
    state.thunderstormFromPage({ eventId: 'tst_1', eventEndUtcEpoch: NOW - 300_000, severity: 'LOW' }, NOW);
    const path = state.stormPaths().features.find((f) => f.properties['part'] === 'path');
    assert.deepEqual(path?.geometry, {
      type: 'LineString',
      coordinates: [
        [32.85, 39.93],
        [33.0, 39.93],
        [33.2, 39.93],
      ],
    });
    assert.deepEqual(
      state.stormCells().features.map((f) => [f.properties['part'], f.properties['severity']]),
      [
        ['threat', 'HIGH'],
        ['horizon', 'HIGH'],
        ['cell', 'HIGH'],
      ],
    );
    state.prune(NOW + 21 * 60_000);
    assert.equal(state.stormCount, 0);
  });

  it('extrapolates a storm of the first load an hour ahead along its heading', () => {
    const state = new WeatherState();
    state.thunderstormFromPage({ eventId: 'tst_2', eventEndUtcEpoch: NOW, cell: { speed: 60, direction: 90, centroid: { lng: 32.85, lat: 39.93 } } }, NOW);
    const line = state.stormPaths().features.find((f) => f.properties['part'] === 'path')?.geometry;
    assert.equal(line?.type, 'LineString');
    const coordinates = line?.type === 'LineString' ? line.coordinates : [];
    const end = coordinates[coordinates.length - 1]!;
    // 60 km due east at 39.93° N is about 0.70° of longitude.
    assert.ok(Math.abs(end[0] - 33.553) < 0.01 && Math.abs(end[1] - 39.93) < 0.02, `end of the path ${end}`);
  });

  it('shows the newest radar scan and no nowcasts', () => {
    const state = new WeatherState();
    const ring: [number, number][] = [
      [32.8, 39.9],
      [32.9, 39.9],
      [32.9, 40.0],
      [32.8, 39.9],
    ];
    const polygons = [[ring]];
    state.rainFromPage({ eventId: 'prc_old', radarTimeStamp: NOW - 600_000, forecast: false, intensity: 'LIGHT' }, polygons);
    state.rainFromPage({ eventId: 'prc_new', radarTimeStamp: NOW - 60_000, forecast: false, intensity: 'HEAVY' }, polygons);
    state.rainFromPage({ eventId: 'prc_future', radarTimeStamp: NOW + 600_000, forecast: true, intensity: 'EXTREME' }, polygons);
    state.prune(NOW);
    assert.deepEqual(
      state.rainAreas().features.map((f) => f.properties['eventId']),
      ['prc_new'],
    );
  });
});
