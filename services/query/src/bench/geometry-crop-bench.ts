/**
 * Benchmark (not a test): cropping the geometry of 10 precipitation events to a geodesic circle
 * and encoding the FeatureCollection, as POST /v1/precipitations/geometry does once the events are
 * read (interface.md 4.1).
 *
 *   node services/query/dist/bench/geometry-crop-bench.js [--rounds 200] [--vertices 1500]
 *
 * The events are irregular radar-like blobs of 15 to 90 km around Ankara with `vertices` vertices
 * each and a hole in every other one (the next intensity band), seeded so runs compare. Circles of
 * 50 km and 200 km (the contract's maximum) around Ankara; p50 and p99 over `rounds` requests.
 */
import { parseArgs } from 'node:util';
import { direct } from '@stormhook/geometry';
import { queryV1, type weatherV1 } from '@stormhook/proto';
import { machineDescription, reportBench } from '@stormhook/testing';
import { cropToCircle } from '../geometry/circle-clip.js';
import { precipitationRings } from '../domain/event-entries.js';
import { featureOf } from '../usecases/precipitation-geometry.js';
import { random } from './synthetic.js';

const { values } = parseArgs({ options: { rounds: { type: 'string' }, vertices: { type: 'string' } } });
const rounds = Number(values.rounds ?? 200);
const vertices = Number(values.vertices ?? 1500);
/** A point as the proto events carry it. */
interface LngLat {
  lng: number;
  lat: number;
}

const ANKARA = { lng: 32.85, lat: 39.93 };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** A closed ring of `n` vertices around `c`, radius wobbling around `radiusM`. */
function blob(c: LngLat, radiusM: number, n: number, rnd: () => number, clockwise = false): LngLat[] {
  const phases = [rnd() * 6, rnd() * 6, rnd() * 6];
  const ring: LngLat[] = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    const r = radiusM * (1 + 0.25 * Math.sin(3 * a + phases[0]!) + 0.12 * Math.sin(7 * a + phases[1]!) + 0.05 * Math.sin(19 * a + phases[2]!));
    const [lng, lat] = direct(c.lng, c.lat, a, r);
    ring.push({ lng, lat });
  }
  // Azimuths turn clockwise; exteriors must run counterclockwise (RFC 7946), holes clockwise.
  if (!clockwise) ring.reverse();
  ring.push({ ...ring[0]! });
  return ring;
}

function events(): weatherV1.PrecipitationEvent[] {
  const rnd = random(42);
  return Array.from({ length: 10 }, (_, i) => {
    const [lng, lat] = direct(ANKARA.lng, ANKARA.lat, rnd() * 2 * Math.PI, rnd() * 120_000);
    const c = { lng, lat };
    const radius = 15_000 + rnd() * 75_000;
    const exterior = blob(c, radius, vertices, rnd);
    const holes = i % 2 === 0 ? [blob(c, radius * 0.4, Math.round(vertices / 3), rnd, true)] : [];
    return {
      eventId: `prc_bench-${i}`,
      sourceEventId: `bench-${i}`,
      revision: { revision: 1, sourceVersion: 0, sourceUpdatedEpochMs: 0, ingestedEpochMs: 0 },
      areaKey: 'sxk',
      radarTimestampEpochMs: Date.now(),
      forecast: false,
      intensity: 'PRECIPITATION_INTENSITY_MODERATE',
      geometry: { polygons: [{ exterior: { points: exterior }, holes: holes.map((points) => ({ points })) }] },
      bbox: null,
      centroid: c,
      areaKm2: 0,
      motion: null,
    };
  });
}

function cropAll(list: weatherV1.PrecipitationEvent[], radiusM: number): number {
  const features = list.map((e) => featureOf(e, cropToCircle(precipitationRings(e), { center: [ANKARA.lng, ANKARA.lat], radiusM })));
  return queryV1.PrecipitationFeatureCollection.encode({ features }).length;
}

function main(): void {
  const list = events();
  console.log(`${machineDescription()}; 10 events of ${vertices} vertices (holes in half of them), ${rounds} rounds`);
  for (const radiusM of [50_000, 200_000]) {
    for (let i = 0; i < 20; i++) cropAll(list, radiusM); // warm-up
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < rounds; i++) {
      const started = performance.now();
      bytes = cropAll(list, radiusM);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const km = radiusM / 1000;
    console.log(`radius ${km} km: p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms, ${bytes} bytes encoded`);
    const note = `10 events of ${vertices} vertices each, crop and protobuf encoding, ${bytes.toLocaleString('en')} bytes out`;
    reportBench({ bench: 'query geometry crop', metric: `p50 for 10 events, ${km} km circle`, value: percentile(times, 50), unit: 'ms', note });
    reportBench({ bench: 'query geometry crop', metric: `p99 for 10 events, ${km} km circle`, value: percentile(times, 99), unit: 'ms', note });
  }
}

main();
