import assert from 'node:assert/strict';
import { createLogger } from '@stormhook/logger';
import { fail, ok } from '../result.js';
import { validation } from '../errors.js';
import type { IdentityHandlerDeps } from './handler-deps.js';
import { userHandlers } from './user-handlers.js';

/** The handlers over a password reset whose lookup and e-mail never finish, and a log to read. */
function handlersOver(checked: ReturnType<typeof ok> | ReturnType<typeof fail>) {
  let started = 0;
  const passwordReset = {
    checkRequest: () => checked,
    requestReset: () => {
      started++;
      return new Promise<never>(() => undefined);
    },
  };
  const deps = {
    uc: { passwordReset },
    users: {},
    tokenKeys: {},
    logger: createLogger({ service: 'test', level: 'silent' }),
  } as unknown as IdentityHandlerDeps;
  return { handlers: userHandlers(deps), started: () => started };
}

describe('requestPasswordReset handler', () => {
  it('answers before the user is looked up, so a known and an unknown username take the same time', async () => {
    const { handlers, started } = handlersOver(ok({ username: 'known@example.com', page: new URL('https://app.example.com/reset') }));
    const answer = await handlers.requestPasswordReset({ username: 'known@example.com', resetPageLink: 'https://app.example.com/reset' }, {} as never);
    assert.deepEqual(answer, {});
    assert.equal(started(), 1, 'the reset still runs, in the background');
  });

  it('still tells a malformed request, and starts nothing', async () => {
    const { handlers, started } = handlersOver(fail(validation('resetPageLink', 'must be on an allowed origin')));
    await assert.rejects(handlers.requestPasswordReset({ username: 'x@example.com', resetPageLink: 'https://evil.example/' }, {} as never));
    assert.equal(started(), 0);
  });
});
