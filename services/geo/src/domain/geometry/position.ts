/** Why a coordinate is outside WGS 84 (interface.md 2.1: lng -180..180, lat -90..90), or undefined. */
export function positionProblem(lng: number, lat: number): string | undefined {
  if (!Number.isFinite(lng) || !Number.isFinite(lat)) return 'coordinates must be finite numbers';
  if (lng < -180 || lng > 180) return `longitude ${lng} is outside -180..180`;
  if (lat < -90 || lat > 90) return `latitude ${lat} is outside -90..90`;
  return undefined;
}
