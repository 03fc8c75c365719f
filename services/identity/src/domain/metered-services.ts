// Shared with the gateway, which decides access from the same rules: one home, in @stormhook/access.
export { METERED_SERVICES, isMeteredService, parseServiceName, type MeteredService } from '@stormhook/access';
