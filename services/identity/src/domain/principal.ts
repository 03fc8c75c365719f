// Shared with the gateway, which decides access from the same rules: one home, in @stormhook/access.
export type { Principal } from '@stormhook/access';
