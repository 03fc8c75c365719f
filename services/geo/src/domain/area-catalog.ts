import { SUPPORTED_COUNTRIES, type Area, type AreaLevel, type CountryCode } from './area.js';

/** Every area by level and id, plus the city list of each country; an immutable snapshot. */
export class AreaCatalog {
  private readonly byLevel: Record<AreaLevel, Map<number, Area>> = {
    city: new Map(),
    district: new Map(),
    neighbourhood: new Map(),
  };
  private readonly citiesByCountry = new Map<CountryCode, Area[]>(SUPPORTED_COUNTRIES.map((c) => [c, []]));

  constructor(readonly areas: readonly Area[]) {
    for (const area of areas) this.byLevel[area.level].set(area.id, area);
    for (const city of this.byLevel.city.values()) this.citiesByCountry.get(city.country)?.push(city);
    for (const list of this.citiesByCountry.values()) list.sort((a, b) => a.id - b.id);
  }

  get(level: AreaLevel, id: number): Area | undefined {
    return this.byLevel[level].get(id);
  }

  /** Cities of a country, by id (so TUR comes in licence plate order). */
  citiesOf(country: CountryCode): readonly Area[] {
    return this.citiesByCountry.get(country) ?? [];
  }

  count(level: AreaLevel, country?: CountryCode): number {
    if (!country) return this.byLevel[level].size;
    let n = 0;
    for (const area of this.byLevel[level].values()) if (area.country === country) n++;
    return n;
  }
}
