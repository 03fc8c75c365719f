import type { Registration } from '../domain/registration.js';

export type RegistrationChange =
  | { change: 'REGISTERED' | 'UPDATED'; registration: Registration; changedAtMs: number }
  | { change: 'UNREGISTERED'; registrationId: string; version: number; changedAtMs: number };

/** Tells every matcher instance about a change (alarm.registration-changed.v1). */
export interface RegistrationEvents {
  publish(change: RegistrationChange): Promise<void>;
}
