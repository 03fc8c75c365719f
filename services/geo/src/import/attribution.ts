/**
 * The credit the boundary data requires (ODbL 1.0 for the OpenStreetMap-derived provinces and
 * districts, see ../shared/data/geo/README.md), plus the recommended credits for Who's On First
 * (neighbourhoods, CC0) and Natural Earth (Northern Cyprus, public domain). The gateway sends it as a
 * header on every boundary endpoint; ODbL also requires that a public derived database stays ODbL.
 * Every character is Latin-1 ("©" is 0xA9), the repertoire HTTP header values may carry.
 */
export const GEO_ATTRIBUTION =
  '© OpenStreetMap contributors (ODbL 1.0); boundaries via geoBoundaries (www.geoboundaries.org); ' +
  "neighbourhoods: Who's On First (CC0); Northern Cyprus outline: Made with Natural Earth";
