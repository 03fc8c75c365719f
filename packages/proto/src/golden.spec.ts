import assert from 'node:assert/strict';
import { commonV1, grpcHealthV1 } from './index.js';

// Expected bytes worked out by hand from the protobuf encoding rules, not copied from the encoder:
// a change here means the wire format changed, which breaks every peer that is not redeployed.
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('wire format (golden)', () => {
  it('GeoPoint{lng: 29, lat: 41}: two little-endian doubles', () => {
    // tag 1/I64 = 09, 29.0 = 0x403D000000000000; tag 2/I64 = 11, 41.0 = 0x4044800000000000
    assert.equal(hex(commonV1.GeoPoint.encode({ lng: 29, lat: 41 })), '09' + '0000000000003d40' + '11' + '0000000000804440');
  });

  it('HealthCheckResponse{status: NOT_SERVING}: the enum number as a varint', () => {
    assert.equal(hex(grpcHealthV1.HealthCheckResponse.encode({ status: 'NOT_SERVING' })), '0802');
  });

  it('ErrorDetail with every field shape', () => {
    const bytes = commonV1.ErrorDetail.encode({
      reason: 'X',
      message: '', // proto3 default: not written
      messages: ['a', 'b'],
      httpStatus: 0, // optional: written although zero
      retryAfterMs: 2 ** 40,
      metadata: { k: 'v' },
    });
    const expected = [
      '0a0158', // 1: "X"
      '1a0161', // 3: "a"
      '1a0162', // 3: "b"
      '2000', // 4: 0
      '28808080808020', // 5: 2^40 as a varint (five empty groups, then 1 << 5)
      '32060a016b120176', // 6: map entry {1: "k", 2: "v"}
    ].join('');
    assert.equal(hex(bytes), expected);
    assert.deepEqual(commonV1.ErrorDetail.decode(Buffer.from(expected, 'hex')).retryAfterMs, 2 ** 40);
  });
});
