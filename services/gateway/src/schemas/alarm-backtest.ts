import { epochMillis } from './common.js';
import { arrayOf, named, openObject } from './json-schema.js';

/*
 * The alarm back-test (issue 24): the request is each kind's register body (schemas/alarms.ts builds
 * it from the same fields) plus the window below; the answer is one shape for every kind. Times are
 * epoch milliseconds UTC, as everywhere in the API; `from` and `to` name the window in the request and
 * in the answer alike.
 */

/** Days a back-test may reach back: the weather history keeps 30 days of every kind. */
export const BACKTEST_LOOKBACK_DAYS = 30;

/** The request's window: the two fields every kind's back-test body adds to its register body. */
export const backtestWindowFields = {
  from: {
    ...epochMillis,
    description: `start of the window (inclusive), epoch milliseconds UTC; at most ${BACKTEST_LOOKBACK_DAYS} days before now (a minute of clock skew is clipped)`,
  },
  to: {
    ...epochMillis,
    description: 'end of the window (exclusive), epoch milliseconds UTC; after from and not in the future (a minute of clock skew is clipped to now)',
  },
} as const;

const count = (description: string) => ({ type: 'integer', format: 'int32', minimum: 0, description }) as const;
const instant = (description: string) => ({ type: 'integer', format: 'int64', description }) as const;

const TypeCount = named(
  'BacktestTypeCount',
  openObject(
    {
      callbackType: { type: 'string', description: 'webhook event type (the `type` of the callback body), e.g. lightning.strike' },
      stage: { type: 'string', description: 'lifecycle phase: START, UPDATE, END, APPROACHING, APPROACH_CANCELLED, ALL_CLEAR or ALARM (forecast alarms)' },
      callbacks: count('callbacks of this type and stage'),
    },
    ['callbackType', 'stage', 'callbacks'],
  ),
);

const Span = named(
  'BacktestSpan',
  openObject({ from: instant('start, epoch milliseconds UTC (inclusive)'), to: instant('end, epoch milliseconds UTC (exclusive)') }, ['from', 'to']),
);

/** The answer of POST /v1/alarms/{kind}/backtest. */
export const BacktestResult = named(
  'BacktestResult',
  openObject(
    {
      from: instant('start of the window as run (clipped to now and to 30 days back), epoch milliseconds UTC'),
      to: instant('end of the window as run, epoch milliseconds UTC'),
      callbacks: count('callbacks the registration would have caused in the window'),
      firstCallback: { type: ['integer', 'null'], format: 'int64', description: 'time of the first callback, epoch milliseconds UTC; null without callbacks' },
      lastCallback: { type: ['integer', 'null'], format: 'int64', description: 'time of the last callback, epoch milliseconds UTC; null without callbacks' },
      days: arrayOf(
        openObject(
          {
            day: { type: 'string', format: 'date', description: 'the day in Europe/Istanbul (YYYY-MM-DD)' },
            callbacks: count('callbacks of the day'),
            byType: arrayOf(TypeCount, { description: 'the day per callback type and stage; only non-zero rows' }),
          },
          ['day', 'callbacks', 'byType'],
        ),
        { description: 'every Europe/Istanbul day of the window in order, days without callbacks too' },
      ),
      byType: arrayOf(TypeCount, { description: 'the whole window per callback type and stage; only non-zero rows' }),
      samples: arrayOf(
        openObject(
          {
            callbackType: { type: 'string', description: 'webhook event type' },
            at: instant('when the live path would have sent it (the simulated time of the decision), epoch milliseconds UTC'),
            payload: {
              type: 'object',
              description:
                'the callback body exactly as the live path builds it (see the webhooks section for each type), plus "simulation": true; never delivered nor signed',
            },
          },
          ['callbackType', 'at', 'payload'],
        ),
        { maxItems: 20, description: 'up to 20 callbacks, spread over the window' },
      ),
      coverage: arrayOf(
        openObject(
          {
            dataKind: { type: 'string', description: 'LIGHTNING, THUNDERSTORM, PRECIPITATION or FORECAST' },
            covered: arrayOf(Span, { description: 'parts of the window with data of this kind (anywhere in the country), in time order' }),
            gaps: arrayOf(Span, { description: 'parts of the window without any data of this kind: no callbacks there says nothing about the weather' }),
          },
          ['dataKind', 'covered', 'gaps'],
        ),
        { description: 'for each kind of data the filter reads: where the history has it, so zero callbacks is never taken for quiet weather' },
      ),
      sweep: {
        type: ['object', 'null'],
        properties: {
          field: { type: 'string', description: 'the swept filter field as the request names it, e.g. filter.lightning.peakCurrent' },
          current: { type: 'string', description: "the draft's own value, spelled as in points" },
          points: arrayOf(
            openObject(
              {
                value: {
                  type: 'string',
                  description: 'a candidate value: an enum name (MODERATE, SEVERE, a forecast threshold) or a number in the field unit',
                },
                callbacks: count(
                  "alarms the window would have started with this value, the rest of the draft unchanged: a strike's callback, a storm's or rain area's START, a forecast slot's alarm, each once (callbacks are not monotonic in a threshold, these are)",
                ),
              },
              ['value', 'callbacks'],
            ),
            { description: 'from the least to the most demanding value; counts never grow along the list' },
          ),
        },
        required: ['field', 'current', 'points'],
        description: "the filter's main threshold tried at each candidate value; null when the filter has no threshold to sweep",
      },
      warnings: arrayOf({ type: 'string' }, { description: 'notes on the run, e.g. a webhook sent (not used), a window clipped to the history kept' }),
    },
    ['from', 'to', 'callbacks', 'firstCallback', 'lastCallback', 'days', 'byType', 'samples', 'coverage', 'sweep', 'warnings'],
  ),
);
