import { CANKAYA } from './places.js';

export type AlarmKind = 'geometries' | 'points' | 'forecasts';
export const ALARM_KINDS: readonly AlarmKind[] = ['geometries', 'points', 'forecasts'];

/** A complete webhook (interface.md 2.2): the first registration of an account carries one. */
export function fullWebhook(url: string): Record<string, unknown> {
  return {
    url,
    httpMethod: 'POST',
    contentType: 'application/json',
    authentication: { type: 'BASIC', username: 'stormhook', password: 'receiver-secret-1' },
    requestHeaders: { 'X-Customer-Tag': 'e2e' },
    // Milliseconds per attempt, retries, seconds between attempts (notifier README).
    deliveryPolicy: { timeout: 3000, maxRetries: 3, retryDelay: 1 },
  };
}

/** A registration body of each kind, in the contract's shapes, for the webhook given. */
export function registrationBody(kind: AlarmKind, recipientId: string, webhook: Record<string, unknown>): Record<string, unknown> {
  switch (kind) {
    case 'geometries':
      return {
        recipientId,
        boundary: { cityId: CANKAYA.cityId, districtId: CANKAYA.districtId },
        webhook,
        filter: {
          lightning: { type: 'FLASH_CLOUD_TO_GROUND' },
          thunderstorm: { intersectsAffectedPolygon: true, intersectsCellPolygon: true, severityThreshold: 'LOW' },
          precipitation: { intensities: ['LIGHT', 'MODERATE', 'HEAVY', 'VERY_HEAVY', 'EXTREME'] },
        },
      };
    case 'points':
      return {
        recipientId,
        boundary: { point: { lat: CANKAYA.west.lat, lng: CANKAYA.west.lng }, radius: 5000 },
        webhook,
        filter: { lightning: {} },
      };
    case 'forecasts':
      return {
        recipientId,
        boundary: { type: 'ADMINISTRATIVE', cityId: CANKAYA.cityId, districtId: CANKAYA.districtId },
        forecastDays: 1,
        forecastAlarmDelivery: ['MORNING'],
        webhook,
        filter: { hotTemperatureThreshold: 'HOT_SNAP' },
      };
  }
}
