import assert from 'node:assert/strict';
import { enumName, enumNames, enumValue, type EnumName, type EnumNameOf } from './runtime/enum-names.js';
import { feedV1, identityV1, root, weatherV1 } from './index.js';

/** Names of `fullName`'s values sorted by wire number, read from the descriptor, not the generated object. */
function byWireNumber(fullName: string, prefix: string): string[] {
  const values = root.lookupEnum(fullName).values;
  return Object.entries(values)
    .sort(([, a], [, b]) => a - b)
    .map(([name]) => name.slice(prefix.length))
    .filter((name) => name !== 'UNSPECIFIED');
}

describe('enumNames', () => {
  it('strips the prefix and drops UNSPECIFIED', () => {
    assert.deepEqual(enumNames(weatherV1.LightningType, 'LIGHTNING_TYPE_'), ['FLASH_CLOUD_TO_GROUND', 'FLASH_IN_CLOUD']);
    assert.deepEqual(enumNames(identityV1.AccountType, 'ACCOUNT_TYPE_'), ['INDIVIDUAL', 'ORGANIZATION']);
  });

  it('keeps the order ranks depend on: weakest, lowest first', () => {
    assert.deepEqual(enumNames(weatherV1.PrecipitationIntensity, 'PRECIPITATION_INTENSITY_'), [
      'DRIZZLE',
      'LIGHT',
      'MODERATE',
      'HEAVY',
      'VERY_HEAVY',
      'EXTREME',
    ]);
    assert.deepEqual(enumNames(weatherV1.ThunderstormSeverity, 'THUNDERSTORM_SEVERITY_'), ['LOW', 'MEDIUM', 'HIGH']);
    assert.deepEqual(enumNames(identityV1.Role, 'ROLE_'), ['GUEST', 'API_USER', 'STANDARD_USER', 'POWER_USER', 'EXTENDED_USER', 'ADMIN']);
    assert.deepEqual(enumNames(identityV1.UserStatus, 'USER_STATUS_'), ['INACTIVE', 'ACTIVE', 'EXPIRED', 'BLOCKED', 'DELETED']);
    assert.deepEqual(enumNames(identityV1.SubscriptionPlan, 'SUBSCRIPTION_PLAN_'), [
      'NONE',
      'TRIAL',
      'BASIC_MONTHLY',
      'BASIC_YEARLY',
      'PREMIUM_MONTHLY',
      'PREMIUM_YEARLY',
      'CUSTOM',
    ]);
  });

  it('follows the wire numbers of every ordered enum, so declaration order and numbering cannot disagree', () => {
    const ordered: Array<[string, Readonly<Record<string, string>>, string]> = [
      ['stormhook.weather.v1.PrecipitationIntensity', weatherV1.PrecipitationIntensity, 'PRECIPITATION_INTENSITY_'],
      ['stormhook.weather.v1.ThunderstormSeverity', weatherV1.ThunderstormSeverity, 'THUNDERSTORM_SEVERITY_'],
      ['stormhook.identity.v1.Role', identityV1.Role, 'ROLE_'],
    ];
    for (const [fullName, values, prefix] of ordered) assert.deepEqual(enumNames(values, prefix), byWireNumber(fullName, prefix), fullName);
  });

  it('gives the feed and the weather events one vocabulary: the same enums, not copies', () => {
    const fieldEnum = (message: string, field: string) => root.lookupType(message).fields[field]!.resolve().resolvedType;
    for (const [message, field, vocabulary] of [
      ['stormhook.feed.v1.LightningStrike', 'type', 'LightningType'],
      ['stormhook.feed.v1.ThunderstormCell', 'severity', 'ThunderstormSeverity'],
      ['stormhook.feed.v1.MetricSeries', 'metric', 'ForecastMetric'],
      ['stormhook.weather.v1.LightningEvent', 'type', 'LightningType'],
      ['stormhook.weather.v1.PrecipitationEvent', 'intensity', 'PrecipitationIntensity'],
      ['stormhook.weather.v1.ForecastSeries', 'metric', 'ForecastMetric'],
    ] as const) {
      assert.equal(fieldEnum(message, field), root.lookupEnum(`stormhook.weather.v1.${vocabulary}`), `${message}.${field}`);
    }
    assert.equal('PrecipitationIntensity' in feedV1, false, 'the feed package declares no copy');
  });

  it('refuses a prefix that does not start every value', () => {
    assert.throws(() => enumNames(weatherV1.LightningType, 'LIGHTNING_KIND_'), /LIGHTNING_TYPE_UNSPECIFIED does not start with LIGHTNING_KIND_/);
  });

  it('returns a frozen list', () => {
    const names = enumNames(weatherV1.LightningType, 'LIGHTNING_TYPE_');
    assert.ok(Object.isFrozen(names));
  });

  it('types the names as a union of literals', () => {
    const severity: EnumName<weatherV1.ThunderstormSeverity, 'THUNDERSTORM_SEVERITY_'> = 'MEDIUM';
    // @ts-expect-error UNSPECIFIED is not a public name
    const unspecified: EnumName<weatherV1.ThunderstormSeverity, 'THUNDERSTORM_SEVERITY_'> = 'UNSPECIFIED';
    assert.deepEqual([severity, unspecified], ['MEDIUM', 'UNSPECIFIED']);
  });
});

describe('enumName and enumValue', () => {
  it('strip and add the prefix each enum carries, without being told it', () => {
    assert.equal(enumName(weatherV1.PrecipitationIntensity, 'PRECIPITATION_INTENSITY_VERY_HEAVY'), 'VERY_HEAVY');
    assert.equal(enumName(identityV1.Role, 'ROLE_API_USER'), 'API_USER');
    assert.equal(enumValue(weatherV1.PrecipitationIntensity, 'VERY_HEAVY'), 'PRECIPITATION_INTENSITY_VERY_HEAVY');
    assert.equal(enumValue(identityV1.SubscriptionPlan, 'PREMIUM_YEARLY'), 'SUBSCRIPTION_PLAN_PREMIUM_YEARLY');
  });

  it("are each other's reverse over every public name, and agree with enumNames", () => {
    for (const values of [weatherV1.LightningType, weatherV1.ThunderstormSeverity, weatherV1.ForecastMetric, identityV1.UserStatus] as const) {
      const names = enumNames(values, Object.values(values)[0]!.replace(/UNSPECIFIED$/, ''));
      for (const name of names) assert.equal(enumName(values, enumValue(values, name as never)), name);
      assert.deepEqual(
        Object.values(values)
          .map((value) => enumName(values, value))
          .filter((name) => name !== undefined),
        names,
      );
    }
  });

  it('give no name to the zero value, to a value of another enum or to an unknown wire number', () => {
    assert.equal(enumName(weatherV1.LightningType, 'LIGHTNING_TYPE_UNSPECIFIED'), undefined);
    assert.equal(enumName(weatherV1.LightningType, 'THUNDERSTORM_SEVERITY_LOW'), undefined);
    assert.equal(enumName(weatherV1.LightningType, 'FLASH_IN_CLOUD'), undefined);
    assert.equal(enumName(weatherV1.LightningType, 7), undefined);
  });

  it('refuse a name that is not one, where a cast got it past the types', () => {
    assert.throws(() => enumValue(weatherV1.ThunderstormSeverity, 'SEVERE' as never), /SEVERE is not a name of this enum/);
  });

  it('type the names from the enum object alone', () => {
    const name: EnumNameOf<typeof weatherV1.ThunderstormSeverity> = 'HIGH';
    // @ts-expect-error the prefixed value is not a public name
    const prefixed: EnumNameOf<typeof weatherV1.ThunderstormSeverity> = 'THUNDERSTORM_SEVERITY_HIGH';
    assert.deepEqual([name, prefixed], ['HIGH', 'THUNDERSTORM_SEVERITY_HIGH']);
  });
});
