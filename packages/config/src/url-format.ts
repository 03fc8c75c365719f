const SEED_LIST = /^([a-z][a-z0-9+.-]*:\/\/)(?:([^@/?#]*)@)?([^/?#]+)(.*)$/i;

/**
 * Absolute URL check used as the ajv format "env-url". MongoDB seed lists
 * (`mongodb://a:27017,b:27017/db?replicaSet=rs`) are not WHATWG URLs nor RFC 3986 URIs (so neither
 * `URL` nor ajv-formats' "uri" accept them), so each host of a list is checked in the list's place.
 */
export function isUrl(value: string): boolean {
  if (!/^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(value)) return false;
  if (URL.canParse(value)) return true;
  const match = SEED_LIST.exec(value);
  const [, scheme = '', userinfo, hosts = '', rest = ''] = match ?? [];
  if (!match || !hosts.includes(',')) return false;
  const auth = userinfo === undefined ? '' : `${userinfo}@`;
  return hosts.split(',').every((host) => host !== '' && URL.canParse(`${scheme}${auth}${host}${rest}`));
}
