import type { Clock } from '../../ports/clock.js';
import type { EntitlementSource } from '../../ports/entitlement-source.js';
import type { ForecastStore } from '../../ports/forecast-store.js';
import type { GeoPort } from '../../ports/geo-port.js';
import type { RegistrationChange } from '../../ports/registration-events.js';
import type { RegistrationRepository } from '../../ports/registration-repository.js';
import type { WebhookStore } from '../../ports/webhook-store.js';
import type { Registration } from '../../domain/registration.js';
import type { EntitlementBook, Suspension } from '../entitlement/entitlement-book.js';
import type { WebhookView } from './webhook-resolution.js';

/** Told about every change: updates this instance's index at once and broadcasts to the others. */
export interface RegistrationChangeSink {
  changed(change: RegistrationChange): Promise<void>;
}

export interface RegistrationDeps {
  repo: RegistrationRepository;
  geo: GeoPort;
  webhooks: WebhookStore;
  /** The account owner's plan: a point alarm's circle must lie in its regions. */
  owners: EntitlementSource;
  forecasts: ForecastStore;
  /** Whether the account is still entitled, for the view's `suspended`. */
  entitlements: Pick<EntitlementBook, 'suspension'>;
  changes: RegistrationChangeSink;
  clock: Clock;
  newId: () => string;
  /** Farthest a POINT forecast alarm's grid cell may be, in metres. */
  maxCellDistanceM: number;
}

/** A registration as an API answer shows it. */
export interface RegistrationView {
  registration: Registration;
  webhook: WebhookView;
  /** Warnings of this call, shown after the stored ones. */
  warnings: string[];
  /** Present while the account is not entitled: no callback leaves for the registration. */
  suspended?: Suspension;
}

/** The `suspended` member of a view, as the entitlement book holds it now. */
export function suspendedOf(deps: Pick<RegistrationDeps, 'entitlements'>, registration: Registration): { suspended?: Suspension } {
  const suspended = deps.entitlements.suspension(registration);
  return suspended ? { suspended } : {};
}
