import type { Delivery, ForecastRegistration } from '../domain/registration.js';

/**
 * Every forecast alarm, held in memory like the real-time index: loaded at start, kept current by
 * the registration broadcast and the periodic reconciliation (see RegistrationIndexer). A slot then
 * evaluates from here instead of reading 100,000 registrations back from the database at 04:00,
 * which took 22 of the slot's 33 seconds on the embedded database.
 */
export class ForecastRegistrations {
  private readonly byId = new Map<string, ForecastRegistration>();

  get size(): number {
    return this.byId.size;
  }

  get(registrationId: string): ForecastRegistration | undefined {
    return this.byId.get(registrationId);
  }

  upsert(registration: ForecastRegistration): void {
    this.byId.set(registration.registrationId, registration);
  }

  remove(registrationId: string): boolean {
    return this.byId.delete(registrationId);
  }

  ids(): IterableIterator<string> {
    return this.byId.keys();
  }

  /** The alarms delivered in slots of `delivery`, as held now (a copy: the slot runs while changes arrive). */
  forDelivery(delivery: Delivery): ForecastRegistration[] {
    const out: ForecastRegistration[] = [];
    for (const registration of this.byId.values()) if (registration.delivery.includes(delivery)) out.push(registration);
    return out;
  }
}
