import assert from 'node:assert/strict';
import { KIZILAY, fullWebhook, startAlarmStack, type AlarmStack, type Answer, type TestUser } from './support.js';

const BOUND_MS = 10_000;

async function within(call: () => Promise<Answer>, done: (answer: Answer) => boolean): Promise<Answer> {
  const started = Date.now();
  for (;;) {
    const answer = await call();
    if (done(answer)) return answer;
    if (Date.now() - started > BOUND_MS) assert.fail(`still ${answer.status} ${JSON.stringify(answer.body)} after ${BOUND_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Entitlement for as long as a registration lives (issue 23 item 3), with the real identity: an
 * ADMIN blocks the owner, identity says so on identity.user-changed.v1, the matcher reads the
 * owner by account (GetAccessSnapshot, the one identity rpc it may call) and the registration's
 * view says it is suspended; reactivating the owner resumes it.
 */
describe('a blocked owner suspends their registrations (issue 23)', function () {
  this.timeout(120_000);
  let stack: AlarmStack;
  let owner: TestUser;
  let registrationId: string;

  before(async () => {
    stack = await startAlarmStack();
    owner = await stack.user('API_USER');
    const registered = await stack.call('POST', '/v1/alarms/points/register', {
      token: owner.token,
      body: { recipientId: 'owner-point', boundary: { point: KIZILAY, radius: 5000 }, webhook: fullWebhook('http://127.0.0.1:9/owner'), filter: {} },
    });
    assert.equal(registered.status, 200, JSON.stringify(registered.body));
    assert.equal('suspended' in registered.body, false);
    registrationId = registered.body['registrationId'];
  });
  after(async () => {
    await stack?.stop();
  });

  it('shows suspended USER_BLOCKED while the owner is blocked, and nothing once active again', async () => {
    const admin = await stack.adminToken();
    const view = () => stack.call('GET', `/v1/alarms/points/get-by-id/${registrationId}`, { token: admin });
    const setStatus = async (status: string) => {
      const answer = await stack.call('PATCH', '/v1/users/update-role-status', { token: admin, body: { userId: owner.userId, status } });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
    };
    await setStatus('BLOCKED');
    const suspended = await within(view, (a) => a.status === 200 && a.body['suspended'] !== undefined);
    assert.equal(suspended.body['suspended'].reason, 'USER_BLOCKED');
    assert.equal(typeof suspended.body['suspended'].since, 'number');
    await setStatus('ACTIVE');
    await within(view, (a) => a.status === 200 && a.body['suspended'] === undefined);
  });
});
