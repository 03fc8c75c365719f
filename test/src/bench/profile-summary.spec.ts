import assert from 'node:assert/strict';
import { ownerOf, summarize } from './profile-summary.js';

describe('CPU profile summary', () => {
  it('names the owner of a frame: npm package, our workspace folder, node module or V8 pseudo-frame', () => {
    const frame = (url: string, functionName = 'f') => ({ url, functionName, lineNumber: 0 });
    assert.equal(ownerOf(frame('file:///x/node_modules/.pnpm/got@14.4.7/node_modules/got/dist/source/core/index.js')), 'pkg:got');
    assert.equal(ownerOf(frame('file:///x/node_modules/.pnpm/@grpc+grpc-js@1.14.7/node_modules/@grpc/grpc-js/build/src/x.js')), 'pkg:@grpc/grpc-js');
    assert.equal(ownerOf(frame('file:///x/services/notifier/dist/delivery/delivery-worker.js')), 'ours:services/notifier');
    assert.equal(ownerOf(frame('node:internal/streams/writable')), 'node:internal');
    assert.equal(ownerOf(frame('', '(garbage collector)')), '(garbage collector)');
  });

  it('adds self time per owner and function from the samples', () => {
    const node = (id: number, url: string, functionName: string) => ({ id, callFrame: { url, functionName, lineNumber: 9 } });
    const summary = summarize({
      nodes: [node(1, '', '(root)'), node(2, 'file:///w/node_modules/kafkajs/src/a.js', 'decode'), node(3, '', '(idle)')],
      startTime: 0,
      endTime: 10,
      samples: [2, 2, 3, 2],
      timeDeltas: [1_000, 2_000, 5_000, 3_000],
    });
    assert.equal(summary.totalMs, 11);
    assert.deepEqual(summary.owners, [
      ['pkg:kafkajs', 6],
      ['(idle)', 5],
    ]);
    assert.deepEqual(summary.functions[0], ['pkg:kafkajs decode:10', 6]);
  });
});
