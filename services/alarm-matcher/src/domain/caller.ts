import { atLeast, isRole, type Role } from '@stormhook/access';

/** Who is calling, as the gateway established it (identity's Principal). */
export interface Caller {
  userId: string;
  /** The caller's account; absent when the user has none yet (then nothing can be registered). */
  accountId?: string;
  role: Role | 'UNKNOWN';
}

export function roleOf(name: string): Role | 'UNKNOWN' {
  return isRole(name) ? name : 'UNKNOWN';
}

/** ADMIN sees and changes every account's registrations (reads and writes by id). */
export function seesEveryAccount(caller: Caller): boolean {
  return caller.role === 'ADMIN';
}

/** POWER_USER and above (EXTENDED_USER, ADMIN) may list another account's registrations by naming its accountId (incumbent 4). */
export function mayListOtherAccounts(caller: Caller): boolean {
  return caller.role !== 'UNKNOWN' && atLeast(caller.role, 'POWER_USER');
}

/** Whether `caller` may see or change a registration owned by `accountId`. */
export function owns(caller: Caller, accountId: string): boolean {
  return seesEveryAccount(caller) || (caller.accountId !== undefined && caller.accountId === accountId);
}
