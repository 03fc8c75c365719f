import type { notificationV1 } from '@stormhook/proto';
import type { LatLng, RegistrationKind } from './registration.js';

/**
 * A registration as the transport received it, not validated yet. Enum values are in their public
 * spelling ('' when not set); numbers are as sent. Validation turns it into a {@link ValidInput}.
 */
export interface RegistrationDraft {
  kind: RegistrationKind;
  registrationId: string;
  recipientId: string;
  geometryBoundary?: { cityId: number; districtId?: number | undefined; neighborhoodId?: number | undefined } | undefined;
  forecastBoundary?: { administrative?: { cityId: number; districtId: number } | undefined; point?: LatLng | undefined } | undefined;
  pointBoundary?: { point?: LatLng | undefined; radiusM: number } | undefined;
  webhook?: WebhookDraft | undefined;
  weatherFilter?: WeatherFilterDraft | undefined;
  forecastFilter?: Record<string, string> | undefined;
  forecastDays: number;
  delivery: string[];
}

export interface WebhookDraft {
  /** '' when not sent. */
  accountId: string;
  /** The full configuration, when sent (its url is then non-empty). */
  config?: notificationV1.WebhookEndpointConfig | undefined;
}

/** An early-warning stage as sent; leadMinutes is 0 when the sender left it out (refused by validation). */
export interface ApproachStageDraft {
  leadMinutes: number;
}

export interface WeatherFilterDraft {
  lightning?: { type: string; peakCurrentA?: number | undefined; inCloudHeightM?: number | undefined; approachRadiusM?: number | undefined } | undefined;
  thunderstorm?:
    | {
        intersectsAffectedPolygon?: boolean | undefined;
        intersectsCellPolygon?: boolean | undefined;
        severityThreshold: string;
        speedThresholdKmh?: number | undefined;
        approach?: ApproachStageDraft | undefined;
      }
    | undefined;
  precipitation?: { intensities: string[]; approach?: ApproachStageDraft | undefined } | undefined;
}
