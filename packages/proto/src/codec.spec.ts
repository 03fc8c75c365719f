import assert from 'node:assert/strict';
import { commonV1, grpcHealthV1 } from './index.js';

describe('generated codecs', () => {
  it('round-trips nested and repeated messages (Polygon with holes)', () => {
    const ring = (lng: number): commonV1.LinearRing => ({
      points: [
        { lng, lat: 41 },
        { lng: lng + 1, lat: 41 },
        { lng: lng + 1, lat: 42 },
        { lng, lat: 41 },
      ],
    });
    const polygon: commonV1.Polygon = { exterior: ring(28), holes: [ring(28.2), ring(28.5)] };
    const decoded = commonV1.Polygon.decode(commonV1.Polygon.encode(polygon));
    assert.deepEqual(decoded, polygon);
    const multi = commonV1.MultiPolygon.decode(commonV1.MultiPolygon.encode({ polygons: [polygon, polygon] }));
    assert.equal(multi.polygons.length, 2);
    assert.deepEqual(multi.polygons[1]?.holes[1]?.points[2], { lng: 29.5, lat: 42 });
  });

  it('round-trips int64 beyond 32 bits, proto3 optional presence, repeated strings and maps', () => {
    const detail: commonV1.ErrorDetail = {
      reason: 'QUOTA_EXCEEDED',
      message: 'limit reached',
      messages: ['first', 'second'],
      httpStatus: 429,
      retryAfterMs: 2 ** 40 + 7, // needs more than 32 bits and stays exact below 2^53
      metadata: { limit: '1000', window: 'day' },
    };
    assert.deepEqual(commonV1.ErrorDetail.decode(commonV1.ErrorDetail.encode(detail)), detail);

    const page = commonV1.PageInfo.decode(commonV1.PageInfo.encode({ pageNumber: 3, pageSize: 100, totalRecords: Number.MAX_SAFE_INTEGER }));
    assert.equal(page.totalRecords, Number.MAX_SAFE_INTEGER);
  });

  it('keeps an explicitly set zero in an optional field apart from an absent one', () => {
    const zero = commonV1.ErrorDetail.decode(commonV1.ErrorDetail.encode(commonV1.ErrorDetail.create({ httpStatus: 0 })));
    assert.equal(zero.httpStatus, 0);
    const absent = commonV1.ErrorDetail.decode(commonV1.ErrorDetail.encode(commonV1.ErrorDetail.create({})));
    assert.equal('httpStatus' in absent, false);
  });

  it('encodes enums by name and decodes them back to names, including in map values', () => {
    const { SERVING, NOT_SERVING } = grpcHealthV1.HealthCheckResponse_ServingStatus;
    const bytes = grpcHealthV1.HealthCheckResponse.encode({ status: NOT_SERVING });
    assert.deepEqual(grpcHealthV1.HealthCheckResponse.decode(bytes), { status: 'NOT_SERVING' });

    const list: grpcHealthV1.HealthListResponse = { statuses: { '': { status: SERVING }, 'stormhook.geo.v1.AreaService': { status: NOT_SERVING } } };
    assert.deepEqual(grpcHealthV1.HealthListResponse.decode(grpcHealthV1.HealthListResponse.encode(list)), list);
  });

  it('decodes empty bytes to a message full of defaults', () => {
    assert.deepEqual(commonV1.ErrorDetail.decode(new Uint8Array()), { reason: '', message: '', messages: [], metadata: {} });
    assert.deepEqual(commonV1.Polygon.decode(new Uint8Array()), { exterior: null, holes: [] });
    assert.deepEqual(grpcHealthV1.HealthCheckResponse.decode(new Uint8Array()), { status: 'UNKNOWN' });
  });

  it('fills defaults at every depth with create()', () => {
    assert.deepEqual(commonV1.Polygon.create({ exterior: { points: [{ lng: 1 }] } }), {
      exterior: { points: [{ lng: 1, lat: 0 }] },
      holes: [],
    });
    assert.equal(commonV1.GeoPoint.typeName, 'stormhook.common.v1.GeoPoint');
  });

  it('rejects bytes that are not the message', () => {
    // Field 1 of GeoPoint is a double: a length-delimited wire type there claims 127 bytes that are not present.
    assert.throws(() => commonV1.GeoPoint.decode(Uint8Array.from([0x0a, 0x7f, 0x01])));
  });
});

describe('generated service definitions', () => {
  it('carry the gRPC path, streaming flags and working serializers', () => {
    const { check, watch } = grpcHealthV1.HealthService;
    assert.equal(check.path, '/grpc.health.v1.Health/Check');
    assert.equal(check.originalName, 'Check');
    assert.deepEqual([check.requestStream, check.responseStream], [false, false]);
    assert.deepEqual([watch.requestStream, watch.responseStream], [false, true]);

    const wire = check.requestSerialize({ service: 'stormhook.geo.v1.AreaService' });
    assert.ok(Buffer.isBuffer(wire));
    assert.deepEqual(check.requestDeserialize(wire), { service: 'stormhook.geo.v1.AreaService' });
    assert.deepEqual(check.responseDeserialize(check.responseSerialize({ status: 'SERVING' })), { status: 'SERVING' });
  });
});
