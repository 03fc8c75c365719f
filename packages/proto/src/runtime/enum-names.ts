/**
 * The public spelling of a value of a generated enum: its name without the enum's prefix
 * (`PRECIPITATION_INTENSITY_HEAVY` -> `HEAVY`). The zero value `<PREFIX>UNSPECIFIED` means "not set"
 * (proto/README.md) and so has no public spelling.
 */
export type EnumName<Value extends string, Prefix extends string> = Value extends `${Prefix}UNSPECIFIED`
  ? never
  : Value extends `${Prefix}${infer Name}`
    ? Name
    : never;

/**
 * The public names of a generated enum, in the order the .proto file declares its values, so
 * contract value lists (intensities, roles, plans...) are derived from proto/ instead of copied:
 *
 * ```ts
 * const INTENSITIES = enumNames(weatherV1.PrecipitationIntensity, 'PRECIPITATION_INTENSITY_');
 * // ['DRIZZLE', 'LIGHT', 'MODERATE', 'HEAVY', 'VERY_HEAVY', 'EXTREME']
 * ```
 *
 * The order is the declaration order (the generator writes the values as declared), which is
 * what rank-based code (intensity and severity thresholds, role levels) relies on. A prefix that
 * does not start every value is a programming error and throws at module load, so a wrong prefix
 * cannot silently produce an empty or half-stripped list.
 */
export function enumNames<const Values extends Readonly<Record<string, string>>, const Prefix extends string>(
  values: Values,
  prefix: Prefix,
): ReadonlyArray<EnumName<Values[keyof Values], Prefix>> {
  const names: string[] = [];
  for (const value of Object.values(values)) {
    if (!value.startsWith(prefix)) throw new Error(`enum value ${value} does not start with ${prefix}`);
    const name = value.slice(prefix.length);
    if (name !== 'UNSPECIFIED') names.push(name);
  }
  return Object.freeze(names) as ReadonlyArray<EnumName<Values[keyof Values], Prefix>>;
}

/** The prefix of a generated enum, read off its zero value `<PREFIX>UNSPECIFIED` (every enum has one: proto/README.md). */
export type EnumPrefix<Value extends string> = Value extends `${infer Prefix}UNSPECIFIED` ? Prefix : never;

/** The public names of a generated enum object (`weatherV1.LightningType` -> `'FLASH_CLOUD_TO_GROUND' | 'FLASH_IN_CLOUD'`). */
export type EnumNameOf<Values extends Readonly<Record<string, string>>> = EnumName<Values[keyof Values], EnumPrefix<Values[keyof Values]>>;

interface Spelling {
  readonly nameOf: ReadonlyMap<string, string>;
  readonly valueOf: ReadonlyMap<string, string>;
}

/** Both directions of one enum, built on first use: the lookups run per record on hot paths. */
const spellings = new WeakMap<object, Spelling>();

function spellingOf(values: Readonly<Record<string, string>>): Spelling {
  let spelling = spellings.get(values);
  if (spelling) return spelling;
  const zero = Object.values(values).find((value) => value.endsWith('UNSPECIFIED'));
  if (zero === undefined) throw new Error(`enum without an UNSPECIFIED zero value: ${Object.values(values).join(', ')}`);
  const prefix = zero.slice(0, -'UNSPECIFIED'.length);
  const names = enumNames(values, prefix);
  spelling = {
    nameOf: new Map(names.map((name) => [`${prefix}${name}`, name])),
    valueOf: new Map(names.map((name) => [name, `${prefix}${name}`])),
  };
  spellings.set(values, spelling);
  return spelling;
}

/**
 * The public name of one value of a generated enum (`PRECIPITATION_INTENSITY_HEAVY` -> `HEAVY`), the
 * prefix read off the enum itself, so no code adds or strips a prefix by hand. Undefined for the zero
 * value (not set) and for anything that is not a value of this enum: a number the decoder kept
 * because it is not in our copy of the contract, or a value of another enum.
 */
export function enumName<const Values extends Readonly<Record<string, string>>>(values: Values, value: string | number): EnumNameOf<Values> | undefined {
  return spellingOf(values).nameOf.get(String(value)) as EnumNameOf<Values> | undefined;
}

/** The reverse of {@link enumName}: the generated value of a public name (`HEAVY` -> `PRECIPITATION_INTENSITY_HEAVY`). */
export function enumValue<const Values extends Readonly<Record<string, string>>>(values: Values, name: EnumNameOf<Values>): Values[keyof Values] {
  const value = spellingOf(values).valueOf.get(name);
  // Only reachable past the type checker (a cast or a value read from outside): a programming error.
  if (value === undefined) throw new RangeError(`${name} is not a name of this enum`);
  return value as Values[keyof Values];
}
