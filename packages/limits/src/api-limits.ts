/**
 * The limits of the public API (interface.md section 8, and the incumbent's for the operations the
 * contract does not list): the gateway's schemas publish them and the services check them again,
 * because their gRPC APIs are boundaries too. Both read them from here, so they cannot drift apart.
 * Loosening one is a contract change; tightening one can break callers.
 */
export const API_LIMITS = {
  /** Page size of every list with a documented bound. */
  pageSizeMax: 100,
  /** 4.2 / 4.3: the window of the precipitation and thunderstorm lists, 60 s to 5 days, in seconds. */
  listWindowSeconds: { min: 60, max: 432_000 },
  /** /precipitations/within (incumbent): 60 s to 30 days, in seconds. */
  withinWindowSeconds: { min: 60, max: 2_592_000 },
  /** 4.1: event ids of one precipitation geometry request. */
  geometryEventIdsMax: 10,
  /** 4.1: crop circle of the precipitation geometry, in metres. */
  geometryRadiusMaxM: 200_000,
  /** /precipitations/within (incumbent): circle radius, in metres. */
  withinRadiusMaxM: 50_000,
  /** Days of a forecast request. */
  forecastDays: { min: 1, max: 14 },
  /**
   * Point alarm radius, in metres: below 100 m is finer than lightning location accuracy; 200 km
   * as the geometry crop.
   */
  pointRadiusM: { min: 100, max: 200_000 },
} as const;
