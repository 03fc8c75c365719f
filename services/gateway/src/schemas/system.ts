import { named, openObject } from './json-schema.js';

const status = { type: 'string', enum: ['up', 'down'] };

export const HealthReport = named(
  'HealthReport',
  openObject(
    {
      status,
      components: {
        type: 'object',
        description: 'each component and its status; shown to ADMIN callers only',
        additionalProperties: openObject({ status, detail: { type: 'string' } }, ['status']),
      },
      dataSource: {
        type: 'string',
        description: 'present when the weather is not real: the local stack says here that its feed simulator publishes synthetic data',
      },
    },
    ['status'],
  ),
);

export const HealthStatus = named(
  'HealthStatus',
  openObject({ status, down: { type: 'array', items: { type: 'string' }, description: 'when not ready: the components readiness needs that are down' } }, [
    'status',
  ]),
);

export const OpenApiDocument = { type: 'object', description: 'this OpenAPI 3.1 document' };
export const AsyncApiDocument = { type: 'object', description: 'the AsyncAPI 3.0 document of the feed and weather topics' };
