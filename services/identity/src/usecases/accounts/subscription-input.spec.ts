import assert from 'node:assert/strict';
import { fromIncumbentBody } from './subscription-input.js';

describe('fromIncumbentBody (update-subscription body of the incumbent)', () => {
  const accountId = '22222222-2222-4222-8222-222222222222';

  it('flattens details into boundaries and per-service limits with their recurrence', () => {
    const result = fromIncumbentBody({
      accountId,
      subscriptionPlan: 'CUSTOM',
      planDetails: {
        subscriptionExpirationEpoch: 1_767_225_600_000,
        details: [
          {
            limitResetRecurrence: { limitType: 'DAILY', limitResetInterval: 1 },
            geoBoundary: { country: 'TUR', region: 'Ankara' },
            apiServiceLimits: [
              { version: 'v1', serviceName: 'precipitations', maxInvocation: 1000 },
              { version: 'v1', serviceName: 'FORECAST', maxInvocation: 50 },
            ],
          },
          {
            limitResetRecurrence: { limitType: 'QUOTA' },
            geoBoundary: { country: 'CTR' },
            apiServiceLimits: [{ serviceName: 'alarm-point', maxInvocation: 10 }],
          },
        ],
      },
    });
    assert.deepEqual(result, {
      ok: true,
      value: {
        accountId,
        userId: undefined,
        subscriptionPlan: 'CUSTOM',
        expiresAt: 1_767_225_600_000,
        geographicBoundaries: [{ country: 'TUR', region: 'Ankara' }, { country: 'CTR' }],
        limits: {
          PRECIPITATION: { limit: 1000, recurrence: 'DAILY', interval: 1 },
          FORECAST: { limit: 50, recurrence: 'DAILY', interval: 1 },
          ALARM_POINT: { limit: 10, recurrence: 'QUOTA', interval: 1 },
        },
      },
    });
  });

  it('passes a bare plan through so the plan defaults apply', () => {
    assert.deepEqual(fromIncumbentBody({ accountId, subscriptionPlan: 'TRIAL' }), {
      ok: true,
      value: { accountId, userId: undefined, subscriptionPlan: 'TRIAL' },
    });
  });

  it('names the exact path of a bad entry', () => {
    const field = (body: Parameters<typeof fromIncumbentBody>[0]) => {
      const r = fromIncumbentBody(body);
      return !r.ok && r.error.kind === 'validation' ? r.error.field : undefined;
    };
    const detail = (d: unknown) => ({ accountId, subscriptionPlan: 'CUSTOM', planDetails: { details: [d] } });
    assert.equal(
      field(detail({ limitResetRecurrence: { limitType: 'DAILY' }, apiServiceLimits: [{ serviceName: 'lightnings', maxInvocation: 1 }] })),
      'planDetails.details[0].apiServiceLimits[0].serviceName',
    );
    assert.equal(
      field(detail({ limitResetRecurrence: { limitType: 'HOURLY' }, apiServiceLimits: [{ serviceName: 'GEO', maxInvocation: 1 }] })),
      'planDetails.details[0].limitResetRecurrence.limitType',
    );
    assert.equal(
      field(detail({ limitResetRecurrence: { limitType: 'DAILY' }, apiServiceLimits: [{ serviceName: 'GEO', maxInvocation: -1 }] })),
      'planDetails.details[0].apiServiceLimits[0].maxInvocation',
    );
    assert.equal(field(detail({ geoBoundary: { country: 'GRC' } })), 'planDetails.details[0].geoBoundary.country');
    assert.equal(
      field(
        detail({
          limitResetRecurrence: { limitType: 'DAILY' },
          apiServiceLimits: [
            { serviceName: 'GEO', maxInvocation: 1 },
            { serviceName: 'geo', maxInvocation: 2 },
          ],
        }),
      ),
      'planDetails.details[0].apiServiceLimits[1].serviceName',
    );
  });
});
