import { randomBytes } from 'node:crypto';

/**
 * The key the services sign internal gRPC tokens with, for a local run: the caller's
 * INTERNAL_TOKEN_KEY when set, else a fresh random one per run (every process of the run gets the
 * same one from us, so nobody has to create or store a key to start the stack or run the tests).
 */
export function internalTokenKeyEnv(env: NodeJS.ProcessEnv = process.env): { INTERNAL_TOKEN_KEY: string } {
  return { INTERNAL_TOKEN_KEY: env['INTERNAL_TOKEN_KEY'] || randomBytes(32).toString('base64url') };
}
