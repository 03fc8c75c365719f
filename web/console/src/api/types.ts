/** The parts of the /v1 answers the console reads (the OpenAPI document at /v1/openapi.json has all of them). */

export interface GeoPoint {
  lng: number;
  lat: number;
}

/** interface.md 2.1 ring form. */
export interface RingPolygon {
  exterior: GeoPoint[];
  holes?: GeoPoint[][];
}

/** interface.md 2.1 multi form. */
export interface MultiGeometry {
  polygons: RingPolygon[];
}

export interface CityWithPolygon {
  id: number;
  name: string;
  polygon?: RingPolygon;
}

export interface DistrictWithGeometry {
  id: number;
  name: string;
  geometry?: MultiGeometry;
  city?: { id: number; name: string };
}

export interface NeighborhoodWithPolygon {
  id: number;
  name: string;
  polygon?: RingPolygon;
  district?: { id: number; name: string; city?: { id: number; name: string } };
}

export interface LocatedAreas {
  countryCode: string | null;
  city: { id: number; name: string } | null;
  district: { id: number; name: string } | null;
  neighborhood: { id: number; name: string } | null;
}

export interface ThunderstormRecord {
  eventId: string;
  eventStartUtcEpoch?: number;
  eventEndUtcEpoch?: number;
  severity?: string;
  meta?: { city?: string; state?: string; speed?: number; speedUnit?: string };
  cell?: {
    area?: number;
    speed?: number;
    direction?: number;
    centroid?: GeoPoint;
    polygon?: RingPolygon;
    flashRates?: { total?: number };
  };
  threatPolygon?: RingPolygon;
}

export interface ThunderstormPage {
  thunderstorms: ThunderstormRecord[];
  totalRecords: number;
}

export interface PrecipitationRecord {
  eventId: string;
  radarTimeStamp: number;
  forecast: boolean;
  intensity: string;
}

export interface PrecipitationPage {
  precipitations: PrecipitationRecord[];
  totalRecords: number;
}

export interface LightningFilter {
  type?: string;
  peakCurrent?: number;
}

export interface ThunderstormFilter {
  intersectsAffectedPolygon?: boolean;
  intersectsCellPolygon?: boolean;
  severityThreshold?: string;
  speedThreshold?: number;
}

export interface PrecipitationFilter {
  intensities?: string[];
}

export interface AlarmFilter {
  lightning?: LightningFilter;
  thunderstorm?: ThunderstormFilter;
  precipitation?: PrecipitationFilter;
}

export interface AdministrativeBoundary {
  type?: 'ADMINISTRATIVE';
  cityId?: number;
  districtId?: number;
  neighborhoodId?: number;
}

export interface PointBoundary {
  point: GeoPoint;
  radius: number;
}

export interface Webhook {
  accountId?: string;
  url?: string;
  httpMethod?: string;
  contentType?: string;
}

export interface GeometryRegistration {
  registrationId: string;
  recipientId: string;
  boundary: AdministrativeBoundary;
  filter: AlarmFilter;
  webhook?: Webhook;
  createdAt?: string;
  warnings?: string[];
}

export interface PointRegistration {
  registrationId: string;
  recipientId: string;
  boundary: PointBoundary;
  filter: AlarmFilter;
  webhook?: Webhook;
  createdAt?: string;
  warnings?: string[];
}

export interface RegistrationPage<R> {
  registrations: R[];
  totalRecords: number;
}

export interface BacktestDay {
  day: string;
  callbacks: number;
}

export interface BacktestAnswer {
  from: number;
  to: number;
  callbacks: number;
  days: BacktestDay[];
  byType: { callbackType: string; stage?: string; callbacks: number }[];
  sweep?: { field: string; current: string; points: { value: string; callbacks: number }[] } | null;
  warnings?: string[];
}

export interface HealthWindow {
  attempts: number;
  succeeded: number;
  failed: number;
  successRate: number | null;
  latencyMs: { p50: number | null; p95: number | null; p99: number | null } | null;
}

export interface WebhookHealth {
  state: 'ENABLED' | 'FAILING' | 'DISABLED';
  failingSinceEpochMs: number | null;
  failuresInRow: number;
  disabledReason: string | null;
  lastHour: HealthWindow;
  last24Hours: HealthWindow;
  last7Days: HealthWindow;
  failures: {
    failureClass: string;
    status?: number | null;
    count: number;
    lastEpochMs?: number;
    example?: { notificationId?: string; error?: string | null; responseStatusCode?: number | null };
  }[];
  lastSuccessEpochMs: number | null;
  waitingDeliveries: number;
  asOfEpochMs: number;
}

export interface Delivery {
  notificationId: string;
  registrationId?: string;
  recipientId?: string;
  eventKind?: string;
  status: string;
  test?: boolean;
  attemptCount: number;
  createdAtEpochMs: number;
  lastResponseStatusCode?: number | null;
  callbackType?: string;
  lastFailureClass?: string | null;
}

export interface DeliveryPage {
  deliveries: Delivery[];
  totalRecords: number;
  nextCursor?: string | null;
}

export interface RecoveryJob {
  jobId: string;
  state: string;
  total: number;
  sent: number;
  failed: number;
  error?: string | null;
}

export interface RecoveryAnswer {
  dryRun: boolean;
  total: number;
  byType?: Record<string, number>;
  job?: RecoveryJob | null;
}

export interface CurrentUser {
  userId: string;
  username: string;
  roles?: string;
  account?: { id: string; company?: string; subscriptionPlan?: string };
}
