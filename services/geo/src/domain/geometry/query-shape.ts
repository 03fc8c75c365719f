import type { Circle, Polygon } from '@stormhook/geometry';

/** The query shapes of "areas intersecting ...". */
export type QueryShape = { readonly kind: 'polygon'; readonly polygon: Polygon } | { readonly kind: 'circle'; readonly circle: Circle };
