import assert from 'node:assert/strict';
import { KIZILAY, errorMessage, fullWebhook, startAlarmStack, type AlarmStack, type Answer, type TestUser } from './support.js';

/** The documented bound (services/identity/README.md): a role change is in force within this. */
const BOUND_MS = 5_000;

async function within(call: () => Promise<Answer>, done: (answer: Answer) => boolean): Promise<Answer> {
  const started = Date.now();
  for (;;) {
    const answer = await call();
    if (done(answer)) return answer;
    if (Date.now() - started > BOUND_MS) assert.fail(`still ${answer.status} ${JSON.stringify(answer.body)} after ${BOUND_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The role the alarm-matcher and the notifier act on is the one the gateway forwards: the user's
 * current role from identity, not the claim of a token minted up to 15 minutes earlier.
 */
describe('a demoted ADMIN loses cross-account access within the bound (issue 13)', function () {
  this.timeout(120_000);
  let stack: AlarmStack;
  let owner: TestUser;
  let second: TestUser;
  let registrationId: string;

  before(async () => {
    stack = await startAlarmStack();
    [owner, second] = await Promise.all([stack.user('API_USER'), stack.user('ADMIN')]);
    const registered = await stack.call('POST', '/v1/alarms/points/register', {
      token: owner.token,
      body: { recipientId: 'owner-point', boundary: { point: KIZILAY, radius: 5000 }, webhook: fullWebhook('http://127.0.0.1:9/owner'), filter: {} },
    });
    assert.equal(registered.status, 200, JSON.stringify(registered.body));
    registrationId = registered.body['registrationId'];
  });
  after(async () => {
    await stack?.stop();
  });

  it("reads another account's alarm and webhook as ADMIN, and neither once demoted, with the same token", async () => {
    const alarm = () => stack.call('GET', `/v1/alarms/points/get-by-id/${registrationId}`, { token: second.token });
    const webhook = () => stack.call('GET', `/v1/alarms/webhooks?accountId=${owner.accountId}`, { token: second.token });
    assert.equal((await alarm()).status, 200);
    assert.equal((await webhook()).status, 200);

    const demoted = await stack.call('PATCH', '/v1/users/update-role-status', {
      token: await stack.adminToken(),
      body: { userId: second.userId, role: 'API_USER' },
    });
    assert.equal(demoted.status, 200, JSON.stringify(demoted.body));

    // alarm-matcher decides ownership from the forwarded role: another account's registration is a 404.
    assert.match(errorMessage(await within(alarm, (a) => a.status !== 200), 404), new RegExp(registrationId));
    assert.match(errorMessage(await webhook(), 404), /No webhook is stored for this account/);
  });
});
