import assert from 'node:assert/strict';
import { channelHandler, EventTypes, TopicNames, type ConsumedRecord } from '@stormhook/kafka';
import { identityV1 } from '@stormhook/proto';
import { userChangeHandler, type AccessInvalidation } from './user-changes.js';

class Recorder implements AccessInvalidation {
  readonly calls: string[] = [];
  evictUser(userId: string): void {
    this.calls.push(`user ${userId}`);
  }
  evictApiKey(keyId: string): void {
    this.calls.push(`key ${keyId}`);
  }
  forgetUnknownKeys(): void {
    this.calls.push('unknown keys');
  }
  accessChanged(userId: string, change: string): void {
    this.calls.push(`access ${userId} ${change}`);
  }
}

function record(value: Buffer, eventType: string = EventTypes.UserChanged): ConsumedRecord {
  return {
    topic: TopicNames.UserChanged,
    partition: 0,
    offset: '0',
    key: 'u1',
    value,
    headers: { eventType, eventId: 'evt_1', schemaVersion: 1, contentType: 'application/x-protobuf', all: {} },
    timestamp: new Date(),
  };
}

const event = (change: string, apiKeyId = '') => Buffer.from(identityV1.UserChanged.encode({ userId: 'u1', change, apiKeyId, changedAtEpochMs: 1 }));

/** The handler as the gateway's consumer runs it: channel checks and decode first. */
const userChanges = (target: AccessInvalidation) => channelHandler({ [TopicNames.UserChanged]: userChangeHandler(target) });

describe('identity.user-changed.v1 at the gateway', () => {
  it("drops the user's snapshot on every change, and a revoked key as well; every change but a new key ends what was decided before", async () => {
    const target = new Recorder();
    const handle = userChanges(target);
    assert.deepEqual(await handle(record(event('ROLE_OR_STATUS'))), { kind: 'ok' });
    assert.deepEqual(await handle(record(event('API_KEY_REVOKED', 'k1'))), { kind: 'ok' });
    assert.deepEqual(await handle(record(event('API_KEY_CREATED', 'k2'))), { kind: 'ok' });
    assert.deepEqual(target.calls, ['user u1', 'access u1 ROLE_OR_STATUS', 'user u1', 'key k1', 'access u1 API_KEY_REVOKED', 'user u1', 'unknown keys']);
  });

  it('dead-letters a record of another type or one that cannot be read, naming why', async () => {
    const handle = userChanges(new Recorder());
    const wrongType = await handle(record(event('ACCOUNT'), EventTypes.MessageRequested));
    assert.ok(wrongType.kind === 'dead-letter' && /carries stormhook\.identity\.v1\.UserChanged/.test(wrongType.reason));
    const garbage = await handle(record(Buffer.from([0xff, 0xff, 0xff])));
    assert.ok(garbage.kind === 'dead-letter' && /UserChanged/.test(garbage.reason));
    const anonymous = await handle(record(Buffer.from(identityV1.UserChanged.encode({ userId: '', change: 'ACCOUNT', apiKeyId: '', changedAtEpochMs: 1 }))));
    assert.ok(anonymous.kind === 'dead-letter' && /userId/.test(anonymous.reason));
  });
});
