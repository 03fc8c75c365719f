import { STREAM_KINDS } from '@stormhook/webhooks/stream-events';
import { closedObject } from './json-schema.js';

const kind = `(${STREAM_KINDS.join('|')})`;
const degrees = '-?[0-9]{1,3}(\\.[0-9]{1,12})?';

/**
 * GET /v1/stream's query. The patterns give the form; the handler (stream/stream-query.ts) checks
 * what a pattern cannot: the ranges of the box's corners and their order.
 */
export const StreamQuery = closedObject({
  kinds: {
    type: 'string',
    pattern: `^${kind}(,${kind})*$`,
    maxLength: 100,
    description: `comma list of the weather kinds to carry (${STREAM_KINDS.join(', ')}); default all`,
    examples: ['lightning,thunderstorm'],
  },
  bbox: {
    type: 'string',
    pattern: `^${degrees},${degrees},${degrees},${degrees}$`,
    maxLength: 100,
    description: 'minLng,minLat,maxLng,maxLat in decimal degrees (WGS 84): only events whose extent overlaps this box; default the whole plan geography',
    examples: ['32.5,39.7,33.2,40.1'],
  },
});
