import assert from 'node:assert/strict';
import type { Request } from 'express';
import { decisionResponse } from '@stormhook/access';
import type { geoV1 } from '@stormhook/proto';
import { setAuthState } from './auth-state.js';
import { coversCity, geographyOf } from './caller-geography.js';

const city = (id: number, name: string, countryCode: string): geoV1.City => ({ id, name, countryCode, geometry: null });
const ANKARA = city(6, 'Ankara', 'TUR');
const ISTANBUL = city(34, 'İstanbul', 'TUR');
const LEFKOSA = city(900, 'Lefkoşa', 'CTR');
const ALL = [ANKARA, ISTANBUL, LEFKOSA];

/** A request as the access guards leave it: the caller, and the boundaries of an allowed decision. */
function requestOf(role: string, geographicBoundaries: { country: 'TUR' | 'CTR'; region?: string }[]): Request {
  const req = {} as Request;
  setAuthState(req, {
    principal: { userId: 'u', accountId: 'a', role, username: 'u@example.com', via: 'access-token' },
    access: decisionResponse({ decision: 'allow', quota: false, geographicBoundaries }),
  });
  return req;
}

const names = (req: Request) => ALL.filter(coversCity(req)).map((c) => c.name);

describe('caller geography', () => {
  it('covers only the region of a region-limited plan, whatever the spelling of the region', () => {
    assert.deepEqual(names(requestOf('API_USER', [{ country: 'TUR', region: 'Ankara' }])), ['Ankara']);
    assert.deepEqual(names(requestOf('API_USER', [{ country: 'TUR', region: 'istanbul' }])), ['İstanbul']);
  });

  it('covers a whole country, and several boundaries together', () => {
    assert.deepEqual(names(requestOf('API_USER', [{ country: 'TUR' }])), ['Ankara', 'İstanbul']);
    assert.deepEqual(names(requestOf('API_USER', [{ country: 'CTR' }, { country: 'TUR', region: 'Ankara' }])), ['Ankara', 'Lefkoşa']);
  });

  it('covers nothing for a plan without geography, and everything for an operator', () => {
    assert.deepEqual(names(requestOf('EXTENDED_USER', [])), []);
    assert.deepEqual(names(requestOf('ADMIN', [])), ['Ankara', 'İstanbul', 'Lefkoşa']);
  });

  it('does not cover a city the geo service gives no country', () => {
    assert.equal(coversCity(requestOf('API_USER', [{ country: 'TUR' }]))(city(1, 'Nowhere', '')), false);
  });

  it('hands the query service the same geography, an empty region meaning the whole country', () => {
    assert.deepEqual(geographyOf(requestOf('ADMIN', [])), { unrestricted: true, areas: [] });
    assert.deepEqual(geographyOf(requestOf('API_USER', [{ country: 'TUR' }, { country: 'CTR', region: 'Lefkoşa' }])), {
      unrestricted: false,
      areas: [
        { countryCode: 'TUR', region: '' },
        { countryCode: 'CTR', region: 'Lefkoşa' },
      ],
    });
  });
});
