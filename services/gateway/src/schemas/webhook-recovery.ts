import { enumNames, notificationV1 } from '@stormhook/proto';
import { epochMillis } from './common.js';
import { closedObject, enumOf, named, openObject, pathParams } from './json-schema.js';

/** Public names of the modes: the notifier's enum, lower-case with dashes (as the issue and Svix name them). */
export const RECOVERY_MODES = ['failed', 'all', 'latest-state'] as const;
export const RECOVERY_STATES = enumNames(notificationV1.RecoveryState, 'RECOVERY_STATE_');

export const RecoverRequest = named(
  'RecoverRequest',
  closedObject(
    {
      since: {
        ...epochMillis,
        minimum: 1,
        description: 'deliveries created at or after this time, epoch milliseconds; at most the delivery retention (30 days) back',
      },
      until: { ...epochMillis, minimum: 1, description: 'deliveries created before this time, epoch milliseconds; default now' },
      mode: enumOf(RECOVERY_MODES, {
        description:
          'failed: deliveries that died (retries spent, endpoint gone or disabled); all: every finished delivery; latest-state: for each ' +
          'storm, rain area or lightning episode a registration was called about in the window, one callback in its current phase ' +
          '(the END of a storm that has ended, not its START and UPDATEs). Test deliveries and deliveries still retrying are never sent again.',
      }),
      dryRun: { type: 'boolean', description: 'only count what would be sent (200); default false (202, a recovery job)' },
    },
    ['since', 'mode'],
  ),
);

const byType = {
  type: 'object',
  additionalProperties: { type: 'integer', format: 'int64', minimum: 0 },
  description: 'callbacks per type (the payload type; "unknown" for deliveries stored before it was kept)',
} as const;

export const RecoveryJob = named(
  'RecoveryJob',
  openObject(
    {
      jobId: { type: 'string', description: 'GET /v1/alarms/webhooks/recover/{jobId} follows it' },
      mode: enumOf(RECOVERY_MODES),
      since: epochMillis,
      until: epochMillis,
      state: enumOf(RECOVERY_STATES, {
        description: 'RUNNING (being queued at the recovery rate and sent), DONE (every callback sent or failed), FAILED (see error)',
      }),
      total: { type: 'integer', format: 'int64', description: 'callbacks it sends' },
      queued: { type: 'integer', format: 'int64', description: 'of them, queued so far (a recovery sends 50 a second by default)' },
      sent: { type: 'integer', format: 'int64', description: 'of them, answered with a 2xx' },
      failed: { type: 'integer', format: 'int64', description: 'of them, failed: each is tried once (GET /v1/deliveries/page shows them)' },
      byType,
      createdAtEpochMs: epochMillis,
      finishedAtEpochMs: { type: ['integer', 'null'], format: 'int64', description: 'when its last callback ended; null until DONE' },
      error: { type: ['string', 'null'], description: 'why it stopped; null unless FAILED' },
    },
    ['jobId', 'mode', 'since', 'until', 'state', 'total', 'queued', 'sent', 'failed', 'byType', 'createdAtEpochMs', 'finishedAtEpochMs', 'error'],
  ),
);

export const RecoverAnswer = named(
  'RecoverAnswer',
  openObject(
    {
      dryRun: { type: 'boolean' },
      total: { type: 'integer', format: 'int64', description: 'callbacks it sends, or would send' },
      byType,
      job: { anyOf: [RecoveryJob, { type: 'null' }], description: 'the recovery started; null for a dry run' },
    },
    ['dryRun', 'total', 'byType', 'job'],
  ),
);

export const RecoveryJobParams = pathParams({
  jobId: { type: 'string', pattern: '^rcv_[A-Za-z0-9]{1,60}$', description: 'the id POST /v1/alarms/webhooks/recover answered' },
});
