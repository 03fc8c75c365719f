import { enumNames, identityV1 } from '@stormhook/proto';

/**
 * Roles, lowest to highest (interface.md section 5), as proto/stormhook/identity/v1/vocabulary.proto
 * declares them. The order is the contract: a role includes every permission of the roles before it.
 * Renaming a value is a breaking change of /v1 and of stored users.
 */
export const ROLES = enumNames(identityV1.Role, 'ROLE_');
export type Role = (typeof ROLES)[number];

const RANK: ReadonlyMap<string, number> = new Map(ROLES.map((role, index) => [role, index]));

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && RANK.has(value);
}

/** True when `role` is `min` or above it. An unknown role (a corrupt record) never passes. */
export function atLeast(role: Role, min: Role): boolean {
  const have = RANK.get(role);
  const need = RANK.get(min);
  return have !== undefined && need !== undefined && have >= need;
}

/** Negative, zero or positive like a comparator, so lists of roles sort lowest first. */
export function compareRoles(a: Role, b: Role): number {
  return (RANK.get(a) ?? -1) - (RANK.get(b) ?? -1);
}
