import { defineEnv, bool, int, str, type ConfigOf } from '@stormhook/config';
import { grpcEnv, platformEnv } from '@stormhook/service-kit';

/** Everything the geo service reads from its environment, validated once at start. */
const spec = {
  ...platformEnv,
  ...grpcEnv(50052),
  /**
   * Boundary GeoJSON to import at start: a directory or an http(s) URL. Unset: `../shared/data/geo`
   * beside the repository when it exists; otherwise whatever an earlier import stored.
   */
  STORMHOOK_GEO_SOURCE: str({ optional: true }),
  /** Skip the import at start and serve what the database holds (imports then run with the CLI). */
  GEO_IMPORT_ON_START: bool({ default: true }),
  /** How far outside every polygon a point may lie and still resolve to the nearest area (coastlines are simplified). */
  GEO_FALLBACK_LIMIT_M: int({ default: 10_000, min: 0, max: 50_000 }),
};
export const loadConfig = defineEnv(spec);
export type Config = ConfigOf<typeof spec>;
