// The role order is shared with the gateway: one home, in @stormhook/access.
export { ROLES, isRole, atLeast, compareRoles, type Role } from '@stormhook/access';
