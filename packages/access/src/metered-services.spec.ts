import assert from 'node:assert/strict';
import { parseServiceName } from './metered-services.js';

describe('parseServiceName', () => {
  it('reads the names operators and the incumbent write', () => {
    assert.equal(parseServiceName('precipitations'), 'PRECIPITATION');
    assert.equal(parseServiceName('THUNDERSTORM'), 'THUNDERSTORM');
    assert.equal(parseServiceName('forecasts'), 'FORECAST');
    assert.equal(parseServiceName('alarm-geometries'), 'ALARM_GEOMETRY');
    assert.equal(parseServiceName('alarm_geometry'), 'ALARM_GEOMETRY');
    assert.equal(parseServiceName('Alarm-Points'), 'ALARM_POINT');
    assert.equal(parseServiceName(' geo '), 'GEO');
  });

  it('refuses what it would have to guess', () => {
    for (const name of ['lightnings', 'alarms', 'geos-s', '', 'precipitationss']) assert.equal(parseServiceName(name), undefined, name);
  });
});
