/** Places of the shared boundary data the scenarios use (ids are the data's own). */

/** Çankaya, a district of Ankara (province 6); the story's storm crosses it. */
export const CANKAYA = {
  cityId: 6,
  districtId: 1231,
  name: 'Çankaya',
  /** Points inside the district (the story checks them against the polygon the API serves). */
  centre: { lng: 32.86, lat: 39.87 },
  west: { lng: 32.75, lat: 39.85 },
  /** East of the district (Elmadağ), where the storm goes after crossing it. */
  eastOutside: { lng: 33.6, lat: 39.85 },
};

/** A Who's On First neighbourhood of Beşiktaş, İstanbul. */
export const TURKALI = { id: 1108949969, name: 'Türkali', district: 'Beşiktaş' };

export const ANKARA = { lng: 32.85, lat: 39.93 };
/** Polatlı, where the local stack's approach demo sends a cell every 90 s (the README's warning example). */
export const POLATLI = { lng: 32.15, lat: 39.58 };
export const ISTANBUL = { lng: 28.97, lat: 41.01 };
