import { bool, type ConfigIssue } from '@stormhook/config';

/**
 * The one switch that lets a development stack make up its own secrets (identity's token signing
 * key, the notifier's credential encryption key) and keep them in its database beside what they
 * protect. The local stack and the test runner set it (`npm start`, `npm test`, bench, faults); the
 * chart never does, so a production deployment missing a key refuses to start instead of signing or
 * encrypting with a key anyone who reads the database can use. WARNING: the devstack and the test
 * support spell the name out; renaming it means renaming it there too.
 */
export const devFallbacksEnv = {
  STORMHOOK_DEV_FALLBACKS: bool({
    default: false,
    description: 'development only: let a service generate a missing key and keep it in its database; never set in production',
  }),
};

/**
 * One issue per development-fallback secret left unset while the switch is off, naming the
 * variable and the switch, for the service's loadConfig to throw with its other issues.
 */
export function missingWithoutDevFallbacks(devFallbacks: boolean, secrets: Readonly<Record<string, string | undefined>>): ConfigIssue[] {
  if (devFallbacks) return [];
  return Object.entries(secrets)
    .filter(([, value]) => value === undefined || value === '')
    .map(([variable]) => ({
      variable,
      problem: 'is required; only a development stack may leave it unset, with STORMHOOK_DEV_FALLBACKS=1 (a key is then generated and kept in the database)',
    }));
}
