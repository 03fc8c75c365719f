import assert from 'node:assert/strict';
import { topicSpec } from '@stormhook/kafka';
import { checkRenderedTopics } from './chart-checks.js';
import { imageRepositories, kafkaTopics, summarizeAll, workloadNames } from './manifests.js';

const RENDER = `---
# Source: stormhook/templates/gateway.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    app.kubernetes.io/name: stormhook
  name: stormhook-gateway
spec:
  template:
    spec:
      containers:
        - name: gateway
          image: "registry.example.com/stormhook/gateway:0.1.0"
---
apiVersion: v1
kind: Service
metadata:
  name: stormhook-gateway
---
apiVersion: kafka.strimzi.io/v1
kind: KafkaTopic
metadata:
  name: alarm.triggered.v1
spec:
  topicName: alarm.triggered.v1
  partitions: 6
  replicas: 3
---
apiVersion: batch/v1
kind: Job
metadata:
  name: stormhook-kafka-topics
spec:
  template:
    spec:
      containers:
        - image: apache/kafka@sha256:0123
`;

describe('rendered manifest summaries', () => {
  const manifests = summarizeAll(RENDER);

  it('finds each document’s kind and metadata.name, not a nested name', () => {
    assert.deepEqual(
      manifests.map((m) => `${m.kind}/${m.name}`),
      ['Deployment/stormhook-gateway', 'Service/stormhook-gateway', 'KafkaTopic/alarm.triggered.v1', 'Job/stormhook-kafka-topics'],
    );
    assert.deepEqual(workloadNames(manifests), ['stormhook-gateway', 'stormhook-kafka-topics']);
  });

  it('lists image repositories without tag or digest', () => {
    assert.deepEqual(imageRepositories(manifests), ['apache/kafka', 'registry.example.com/stormhook/gateway']);
  });

  it('reads KafkaTopic names and partitions, and compares them with the catalogue', () => {
    assert.deepEqual(kafkaTopics(manifests), [{ topicName: 'alarm.triggered.v1', partitions: 6 }]);
    assert.equal(checkRenderedTopics(manifests, [topicSpec('alarm.triggered.v1')]).ok, true);
    const missing = checkRenderedTopics(manifests, [topicSpec('alarm.triggered.v1'), topicSpec('feed.lightning.v1')]);
    assert.equal(missing.ok, false);
    assert.match(missing.detail, /feed\.lightning\.v1 missing/);
    const drifted = checkRenderedTopics(summarizeAll(RENDER.replace('partitions: 6', 'partitions: 3')), [topicSpec('alarm.triggered.v1')]);
    assert.match(drifted.detail, /has 3 partitions, the catalogue 6/);
  });
});
