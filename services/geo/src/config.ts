import { defineEnv, type ConfigOf } from '@stormhook/config';
import { grpcEnv, platformEnv } from '@stormhook/service-kit';

/** Everything the geo service reads from its environment, validated once at start. */
const spec = { ...platformEnv, ...grpcEnv(50052) };
export const loadConfig = defineEnv(spec);
export type Config = ConfigOf<typeof spec>;
