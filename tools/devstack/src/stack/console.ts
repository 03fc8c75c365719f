const levels: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/**
 * Shortens a service's JSON log line for the terminal (the full line stays in its log file):
 * `12:00:01 geo INFO listening`. Lines that are not pino JSON pass through.
 */
export function consoleLine(service: string, line: string): string {
  const width = 13;
  const name = service.padEnd(width);
  try {
    const entry = JSON.parse(line) as { level?: number | string; msg?: string; time?: string | number; err?: { message?: string } };
    if (entry.level === undefined) return `${name} ${line}`;
    const level = typeof entry.level === 'number' ? (levels[entry.level] ?? String(entry.level)) : entry.level.toUpperCase();
    const time = new Date(entry.time ?? Date.now()).toISOString().slice(11, 19);
    const error = entry.err?.message ? ` (${entry.err.message})` : '';
    return `${time} ${name} ${level.padEnd(5)} ${entry.msg ?? ''}${error}`;
  } catch {
    return `${name} ${line}`;
  }
}
