import assert from 'node:assert/strict';
import { aclRules } from '@stormhook/kafka';
import { checkKafkaLogins, checkRenderedAcls } from './kafka-access-check.js';

function deployment(component: string, username: string, secret: string, extraSecret?: string): string {
  const extra = extraSecret ? `\n            - name: OTHER\n              valueFrom: { secretKeyRef: { name: ${extraSecret}, key: password } }` : '';
  return `---
kind: Deployment
metadata: { labels: { app.kubernetes.io/component: ${component} } }
spec:
  template:
    spec:
      containers:
        - env:
            - { name: KAFKA_USERNAME, value: ${username} }
            - name: KAFKA_PASSWORD
              valueFrom: { secretKeyRef: { name: ${secret}, key: password } }${extra}
`;
}

function aclJob(lines: string[]): string {
  const script = lines.map((line) => `              ${line}`).join('\n');
  return `---
kind: Job
metadata: { labels: { app.kubernetes.io/component: kafka-acls } }
spec:
  template:
    spec:
      containers:
        - args:
            - |
${script}
`;
}

const line = (principal: string, operation: string, resource: string, name: string, pattern: string) =>
  `/opt/kafka/bin/kafka-acls.sh --bootstrap-server "$BROKERS" --command-config /tmp/admin.properties --add --allow-principal "User:${principal}" --operation ${operation} --${resource} "${name}" --resource-pattern-type ${pattern}`;

describe('Kafka access checks of a render', () => {
  it('passes each service logging in as itself from its own Secret, and fails a borrowed login or Secret', () => {
    assert.equal(checkKafkaLogins(deployment('ingest', 'ingest', 'kafka-ingest'), 'x').ok, true);
    assert.match(checkKafkaLogins(deployment('ingest', 'notifier', 'kafka-notifier'), 'x').detail ?? '', /ingest logs in as notifier/);
    assert.match(checkKafkaLogins(deployment('ingest', 'ingest', 'kafka-notifier'), 'x').detail ?? '', /not its own/);
    assert.match(checkKafkaLogins(deployment('ingest', 'ingest', 'kafka-ingest', 'kafka-identity'), 'x').detail ?? '', /also reads Secret kafka-identity/);
  });

  it('passes a Job granting exactly the table, and names a missing and an extra rule', () => {
    const all = aclRules().map((r) => line(r.principal, r.operation, r.resource, r.name, r.pattern));
    assert.equal(checkRenderedAcls(aclJob(all), 'x').ok, true, checkRenderedAcls(aclJob(all), 'x').detail);
    const detail = checkRenderedAcls(aclJob([...all.slice(1), line('publisher', 'write', 'topic', 'alarm.triggered.v1', 'literal')]), 'x').detail ?? '';
    assert.match(detail, /missing User:/);
    assert.match(detail, /not in the table: User:publisher topic literal alarm.triggered.v1 write/);
  });
});
