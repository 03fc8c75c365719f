/**
 * FerretDB (our embedded database) accepts only these database names, a strict subset of what
 * MongoDB accepts, so names valid here are valid in both.
 */
const VALID = /^[A-Za-z0-9_-]{1,63}$/;

/**
 * The database a service owns: `<prefix>_<service>`, prefix `stormhook` by default. Tests pass
 * `uniqueName('...')` as the prefix to get a fresh database they can drop afterwards. Throws on a name
 * the database would refuse, so a bad prefix fails at start rather than at the first write.
 */
export function databaseName(service: string, prefix = 'stormhook'): string {
  const name = `${prefix}_${service}`;
  if (!VALID.test(name)) {
    throw new Error(`invalid database name "${name}": use 1 to 63 letters, digits, "_" or "-"`);
  }
  return name;
}
