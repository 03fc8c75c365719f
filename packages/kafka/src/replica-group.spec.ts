import assert from 'node:assert/strict';
import { consumerGroupId } from './consumer-group.js';
import { replicaGroup, replicaName } from './replica-group.js';
import { GROUP_ACCESS } from './topic-access.js';

describe('replica groups', () => {
  it('names a broadcast group under the service group, so its group ACL prefix covers it', () => {
    const group = replicaGroup('stormhook-alarm-matcher', 'registrations', 'pod-7');
    assert.equal(group, 'stormhook-alarm-matcher.registrations.pod-7');
    assert.ok(GROUP_ACCESS['alarm-matcher'].some((prefix) => group.startsWith(prefix)));
    assert.ok(GROUP_ACCESS.gateway.some((prefix) => replicaGroup('gateway', 'user-changes', 'x').startsWith(prefix)));
    assert.equal(consumerGroupId(group, 'it-3'), 'it-3.stormhook-alarm-matcher.registrations.pod-7');
  });

  it('refuses an empty part, which would merge replicas into one group', () => {
    assert.throws(() => replicaGroup('stormhook-query', 'weather', ''), /replica name/);
  });

  it('gives two calls in one process different names that are safe in a group id', () => {
    const [a, b] = [replicaName(), replicaName()];
    assert.notEqual(a, b);
    assert.match(a, /^[A-Za-z0-9._-]+$/);
  });
});
