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
