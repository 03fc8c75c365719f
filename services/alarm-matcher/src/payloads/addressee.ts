import type { Registration } from '../domain/registration.js';
import type { Addressee } from './notification.js';

export function addresseeOf(registration: Registration): Addressee {
  return {
    registrationId: registration.registrationId,
    accountId: registration.accountId,
    kind: registration.kind,
    recipientId: registration.recipientId,
  };
}
