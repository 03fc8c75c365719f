import assert from 'node:assert/strict';
import { mapPositions } from './tiltfile-check.js';
import { tiltPrelude } from './tilt-stubs.js';

describe('Tiltfile check', () => {
  it('reports errors at Tiltfile lines, not at lines of the combined program', () => {
    const output = 'Tiltfile.star:112:5: in <toplevel>\n  Tiltfile.star:7:3: in local_resource\n  Tiltfile.star:205:1: in _epilogue';
    assert.equal(
      mapPositions(output, 'Tiltfile.star', 100, 100),
      'Tiltfile:12:5: in <toplevel>\n  tilt-stubs:7:3: in local_resource\n  tilt-checks:5:1: in _epilogue',
    );
  });

  it('embeds the rendered workloads and images for the cross-checks', () => {
    const prelude = tiltPrelude({ workloads: ['b', 'a'], images: ['stormhook/gateway'] });
    assert.match(prelude, /^_WORKLOADS = \["a","b"\]$/m);
    assert.match(prelude, /^_IMAGES = \["stormhook\/gateway"\]$/m);
    assert.match(prelude, /^def k8s_resource\(workload = '', new_name = ''/m);
  });
});
