import { atLeast, type Principal } from '@stormhook/access';

export function isAdmin(actor: Principal): boolean {
  return actor.role === 'ADMIN';
}

/** The owner or an ADMIN may write a user's objects; for everyone else the object does not exist (404). */
export function mayWrite(actor: Principal, ownerUserId: string): boolean {
  return actor.userId === ownerUserId || isAdmin(actor);
}

/** Reading another user's objects also needs POWER_USER (interface.md 4.17). */
export function mayRead(actor: Principal, ownerUserId: string): boolean {
  return actor.userId === ownerUserId || atLeast(actor.role, 'POWER_USER');
}
