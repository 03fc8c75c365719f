/**
 * Sun position (NOAA's simplified algorithm, accurate to about 0.1 degree: plenty for day/night
 * and panel irradiance) and the irradiance on a tilted panel with the isotropic-sky model
 * (Liu and Jordan): beam + diffuse sky share + ground-reflected share.
 */

const RAD = Math.PI / 180;
const SOLAR_CONSTANT = 1361; // W/m²
const ALBEDO = 0.2;

export interface SunPosition {
  /** Angle from the zenith, degrees (90 at the horizon). */
  zenithDeg: number;
  /** Degrees clockwise from north. */
  azimuthDeg: number;
  /** Day of the year, 1-based. */
  dayOfYear: number;
}

export function sunPosition(epochMs: number, lat: number, lng: number): SunPosition {
  const date = new Date(epochMs);
  const start = Date.UTC(date.getUTCFullYear(), 0, 1);
  const dayOfYear = Math.floor((epochMs - start) / 86_400_000) + 1;
  const hours = date.getUTCHours() + date.getUTCMinutes() / 60 + date.getUTCSeconds() / 3600;
  const gamma = ((2 * Math.PI) / 365) * (dayOfYear - 1 + (hours - 12) / 24);
  const eqTime =
    229.18 * (0.000075 + 0.001868 * Math.cos(gamma) - 0.032077 * Math.sin(gamma) - 0.014615 * Math.cos(2 * gamma) - 0.040849 * Math.sin(2 * gamma));
  const decl =
    0.006918 -
    0.399912 * Math.cos(gamma) +
    0.070257 * Math.sin(gamma) -
    0.006758 * Math.cos(2 * gamma) +
    0.000907 * Math.sin(2 * gamma) -
    0.002697 * Math.cos(3 * gamma) +
    0.00148 * Math.sin(3 * gamma);
  const trueSolarMinutes = hours * 60 + eqTime + 4 * lng;
  const hourAngle = (trueSolarMinutes / 4 - 180) * RAD;
  const phi = lat * RAD;
  const cosZenith = Math.min(1, Math.max(-1, Math.sin(phi) * Math.sin(decl) + Math.cos(phi) * Math.cos(decl) * Math.cos(hourAngle)));
  const zenith = Math.acos(cosZenith);
  const sinZenith = Math.sin(zenith);
  let azimuth = 0;
  if (sinZenith > 1e-9) {
    const cosAz = (Math.sin(decl) - Math.sin(phi) * cosZenith) / (Math.cos(phi) * sinZenith);
    azimuth = Math.acos(Math.min(1, Math.max(-1, cosAz))) / RAD;
    if (hourAngle > 0) azimuth = 360 - azimuth;
  }
  return { zenithDeg: zenith / RAD, azimuthDeg: azimuth, dayOfYear };
}

export function isDaylight(epochMs: number, lat: number, lng: number): boolean {
  return sunPosition(epochMs, lat, lng).zenithDeg < 90;
}

export interface Irradiance {
  /** Global horizontal, W/m². */
  ghi: number;
  /** Direct normal, W/m²; NaN when unknown. */
  dni: number;
  /** Diffuse horizontal, W/m²; NaN when unknown. */
  dhi: number;
}

/** Erbs et al. (1982): the diffuse share of global radiation from the clearness index. */
function erbsDiffuse(ghi: number, cosZenith: number, dayOfYear: number): number {
  const extraterrestrial = SOLAR_CONSTANT * (1 + 0.033 * Math.cos((2 * Math.PI * dayOfYear) / 365)) * cosZenith;
  const kt = extraterrestrial > 0 ? Math.min(1, Math.max(0, ghi / extraterrestrial)) : 0;
  const kd = kt <= 0.22 ? 1 - 0.09 * kt : kt <= 0.8 ? 0.9511 - 0.1604 * kt + 4.388 * kt ** 2 - 16.638 * kt ** 3 + 12.336 * kt ** 4 : 0.165;
  return kd * ghi;
}

/**
 * Irradiance on a panel tilted `tiltDeg` from horizontal, facing `azimuthDeg` (0 south, -90 east,
 * 90 west, the Open-Meteo convention the incumbent's examples follow), in W/m². Missing direct or
 * diffuse parts are derived from the global value (Erbs decomposition). `sun` is the position at
 * the middle of the hour the means describe.
 */
export function tiltedIrradiance(radiation: Irradiance, sun: SunPosition, tiltDeg: number, azimuthDeg: number): number {
  const { ghi } = radiation;
  if (!Number.isFinite(ghi)) return NaN;
  const cosZ = Math.cos(sun.zenithDeg * RAD);
  if (ghi <= 0 || cosZ <= 0.01) return Math.max(0, ghi) * ((1 + Math.cos(tiltDeg * RAD)) / 2);
  let { dni, dhi } = radiation;
  if (!Number.isFinite(dhi)) dhi = Number.isFinite(dni) ? Math.max(0, ghi - dni * cosZ) : erbsDiffuse(ghi, cosZ, sun.dayOfYear);
  if (!Number.isFinite(dni)) dni = Math.max(0, (ghi - dhi) / cosZ);
  const beta = tiltDeg * RAD;
  const panelAzimuthFromNorth = (180 + azimuthDeg) * RAD;
  const cosIncidence = cosZ * Math.cos(beta) + Math.sin(sun.zenithDeg * RAD) * Math.sin(beta) * Math.cos(sun.azimuthDeg * RAD - panelAzimuthFromNorth);
  const beam = dni * Math.max(0, cosIncidence);
  const sky = dhi * ((1 + Math.cos(beta)) / 2);
  const ground = ghi * ALBEDO * ((1 - Math.cos(beta)) / 2);
  return Math.max(0, beam + sky + ground);
}
