// Shared with the gateway, which decides access from the same rules: one home, in @stormhook/access.
export { OPERATION_RULES, operationRule, type OperationRule } from '@stormhook/access';
