import type { Registration, RegistrationKind } from '../domain/registration.js';

export interface RegistrationQuery {
  kind: RegistrationKind;
  /** Undefined: every account (ADMIN). */
  accountId?: string;
  recipientIds?: readonly string[];
  /** Exact area (see areaKeyOf). */
  areaKey?: string;
}

export interface Page<T> {
  items: T[];
  total: number;
}

/** Registrations in the matcher's own database. */
export interface RegistrationRepository {
  /** 'duplicate' when the account already has one of this kind for the recipient and area. */
  insert(registration: Registration): Promise<'inserted' | 'duplicate'>;
  replace(registration: Registration): Promise<'replaced' | 'duplicate' | 'missing'>;
  delete(registrationId: string): Promise<boolean>;
  findById(registrationId: string): Promise<Registration | undefined>;
  findByArea(accountId: string, kind: RegistrationKind, recipientId: string, areaKey: string): Promise<Registration | undefined>;
  /** Oldest first. */
  page(query: RegistrationQuery, pageNumber: number, pageSize: number): Promise<Page<Registration>>;
  /** Every match, oldest first (for filters computed in memory). */
  list(query: RegistrationQuery): Promise<Registration[]>;
  /** Every registration (index load and reconciliation; forecast slots evaluate what it loaded). */
  all(): AsyncIterable<Registration>;
}
