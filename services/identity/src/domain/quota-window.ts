// Shared with the gateway, which decides access from the same rules: one home, in @stormhook/access.
export { NEVER, quotaWindow, type QuotaWindow } from '@stormhook/access';
