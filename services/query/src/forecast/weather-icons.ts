/**
 * Weather icons named from the WMO 4677 code (as Open-Meteo reports it) and day or night. The
 * answer carries the file name; clients fetch `weatherIconUrlBase + icon`. The set of names is part
 * of the public contract: an operator serving the icons must provide every one of them.
 */
export const ICON_EXTENSION = '.svg';

function baseName(code: number, isDay: boolean): string {
  const dayNight = (name: string) => `${name}-${isDay ? 'day' : 'night'}`;
  if (code <= 0) return dayNight('clear');
  if (code === 1) return dayNight('mostly-clear');
  if (code === 2) return dayNight('partly-cloudy');
  if (code === 3) return 'overcast';
  if (code === 45 || code === 48) return 'fog';
  if (code >= 51 && code <= 55) return 'drizzle';
  if (code === 56 || code === 57) return 'freezing-drizzle';
  if (code === 61 || code === 63) return 'rain';
  if (code === 65) return 'heavy-rain';
  if (code === 66 || code === 67) return 'freezing-rain';
  if (code === 71 || code === 73) return 'snow';
  if (code === 75) return 'heavy-snow';
  if (code === 77) return 'snow-grains';
  if (code >= 80 && code <= 82) return dayNight('rain-showers');
  if (code === 85 || code === 86) return dayNight('snow-showers');
  if (code === 95) return 'thunderstorm';
  if (code === 96 || code === 99) return 'thunderstorm-hail';
  return 'unknown';
}

/** The icon file name of a weather code, e.g. `partly-cloudy-night.svg`. */
export function weatherIcon(code: number, isDay: boolean): string {
  return `${baseName(Math.round(code), isDay)}${ICON_EXTENSION}`;
}

/**
 * The code that best sums up a day: the most significant one, where the codes are ordered by
 * severity (thunder above snow above rain above fog above cloud), as WMO 4677 numbers them.
 */
export function dailyWeatherCode(codes: readonly number[]): number {
  let best = NaN;
  for (const c of codes) if (Number.isFinite(c) && !(c <= best)) best = c;
  return best;
}
