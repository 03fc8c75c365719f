import assert from 'node:assert/strict';
import { fileRelativeSchema, schemaLocation } from './schemas.js';

describe('Kubernetes schema preparation', () => {
  it('drops $id and points references at the sibling definitions file', () => {
    const original = JSON.stringify({
      $id: 'https://kubernetes.io/api/deployment/apps/v1',
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      properties: { spec: { $ref: '/api/_definitions.json#/$defs/io.k8s.api.apps.v1.DeploymentSpec' } },
    });
    const rewritten = JSON.parse(fileRelativeSchema(original)) as Record<string, unknown>;
    assert.equal('$id' in rewritten, false);
    assert.deepEqual(rewritten['properties'], { spec: { $ref: '_definitions.json#/$defs/io.k8s.api.apps.v1.DeploymentSpec' } });
  });

  it('gives kubeconform a location template under the schema directory', () => {
    assert.equal(
      schemaLocation('/cache/s'),
      '/cache/s/{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json',
    );
  });
});
