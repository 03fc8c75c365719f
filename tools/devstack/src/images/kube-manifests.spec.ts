import assert from 'node:assert/strict';
import { kubePlayDeployments, podmanSecretData, removeBlock } from './kube-manifests.js';

// The shape `helm template` renders (templates/_service.tpl), cut down to what the rewrite touches.
const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: stormhook-gateway
spec:
  template:
    spec:
      serviceAccountName: stormhook-gateway
      containers:
        - name: gateway
          image: "stormhook/gateway:abc"
          ports:
            - name: http
              containerPort: 8080
              protocol: TCP
          env:
            - name: HTTP_HOST
              value: "127.0.0.1"
            - name: QUERY_CONSUMER_GROUP
              value: "stormhook-query-$(K8S_POD_NAME)"
          startupProbe:
            httpGet: { path: /v1/health/live, port: http }
            periodSeconds: 2
          readinessProbe:
            httpGet: { path: /v1/health/ready, port: http }
          securityContext:
            readOnlyRootFilesystem: false`;

const SERVICE = `apiVersion: v1
kind: Service
metadata:
  name: stormhook-gateway
spec:
  ports:
    - name: http
      port: 8080`;

describe('kube play manifests', () => {
  it('removes a key with its whole block and nothing after it', () => {
    const out = removeBlock(DEPLOYMENT, 'ports');
    assert.doesNotMatch(out, /containerPort/);
    assert.match(out, /^ {10}env:\n {12}- name: HTTP_HOST$/m);
  });

  it('keeps only the Deployments, on the host network, without ports or probes', () => {
    const { yaml, deployments } = kubePlayDeployments(`---\n${SERVICE}\n---\n${DEPLOYMENT}\n`);
    assert.deepEqual(deployments, ['stormhook-gateway']);
    assert.doesNotMatch(yaml, /kind: Service/);
    assert.doesNotMatch(yaml, /containerPort|Probe:/);
    assert.match(yaml, /^ {6}hostNetwork: true\n {6}serviceAccountName: stormhook-gateway$/m);
    assert.match(yaml, /readOnlyRootFilesystem: false/);
    assert.match(yaml, /value: "stormhook-query-stormhook-gateway-pod-0"/);
  });

  it('fails when the pod spec no longer has the shape it edits', () => {
    assert.throws(() => kubePlayDeployments(DEPLOYMENT.replace('      serviceAccountName: stormhook-gateway\n', '')), /cannot place hostNetwork/);
  });

  it('encodes the Secret data as podman reads it (a flat JSON map of base64 values)', () => {
    const data = JSON.parse(podmanSecretData({ 'mongo-url': 'mongodb://127.0.0.1:1/' })) as Record<string, string>;
    assert.deepEqual(Object.keys(data), ['mongo-url']);
    assert.equal(Buffer.from(data['mongo-url']!, 'base64').toString(), 'mongodb://127.0.0.1:1/');
  });
});
