import { FEED_SIM_NOTICE, type DevstackConfig } from '../config.js';
import type { ServiceName } from '../services.js';
import type { DevAdmin } from './dev-admin.js';

/**
 * Every process of a development run (npm start, and through the runner's environment npm test,
 * bench and faults) may make up the keys production must supply: identity's token signing key and
 * the notifier's credential key, generated once and kept in their databases. The switch of
 * @stormhook/service-kit's devFallbacksEnv; the chart and the image smoke run never set it.
 */
export const DEV_FALLBACKS: Readonly<Record<string, string>> = { STORMHOOK_DEV_FALLBACKS: '1' };

/**
 * What `npm start` tells a service beyond where everything listens (services.ts): the defaults that
 * make a first start usable. The chart sets none of them; each has its own setting there.
 */
export function localSettings(
  name: ServiceName,
  config: Pick<DevstackConfig, 'feedSimulator' | 'linkOrigins' | 'ssrfAllowCidrs'>,
  admin: DevAdmin,
): Record<string, string> {
  return { ...DEV_FALLBACKS, ...ownSettings(name, config, admin) };
}

function ownSettings(
  name: ServiceName,
  config: Pick<DevstackConfig, 'feedSimulator' | 'linkOrigins' | 'ssrfAllowCidrs'>,
  admin: DevAdmin,
): Record<string, string> {
  switch (name) {
    case 'gateway':
      return config.feedSimulator ? { STORMHOOK_DATA_SOURCE_NOTICE: FEED_SIM_NOTICE } : {};
    case 'identity':
      return { STORMHOOK_ADMIN_EMAIL: admin.email, STORMHOOK_ADMIN_PASSWORD: admin.password, STORMHOOK_ALLOWED_LINK_ORIGINS: config.linkOrigins.join(',') };
    case 'notifier':
      // Set even when empty: `none` in the shell is the devstack's word, not a range the notifier knows.
      return { NOTIFIER_SSRF_ALLOW_CIDRS: config.ssrfAllowCidrs.join(',') };
    default:
      return {};
  }
}
