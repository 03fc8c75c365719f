import { notificationV1 } from '@stormhook/proto';
import type { RecoveryMode, RecoveryState } from '../domain/recovery.js';
import type { RecoveryJobView, RecoveryPlan } from '../usecases/recover-deliveries.js';

const MODES_OUT: Readonly<Record<RecoveryMode, notificationV1.RecoveryMode>> = {
  failed: 'RECOVERY_MODE_FAILED',
  all: 'RECOVERY_MODE_ALL',
  'latest-state': 'RECOVERY_MODE_LATEST_STATE',
};
const MODES_IN = new Map<string, RecoveryMode>(Object.entries(MODES_OUT).map(([mode, wire]) => [wire, mode as RecoveryMode]));
const STATES_OUT: Readonly<Record<RecoveryState, notificationV1.RecoveryState>> = {
  RUNNING: 'RECOVERY_STATE_RUNNING',
  DONE: 'RECOVERY_STATE_DONE',
  FAILED: 'RECOVERY_STATE_FAILED',
};

/** The request's mode; undefined for UNSPECIFIED (the caller must name one). */
export const recoveryModeOf = (wire: notificationV1.RecoveryMode): RecoveryMode | undefined => MODES_IN.get(wire);

const byTypeMessage = (byType: Record<string, number>): notificationV1.CallbackTypeCount[] =>
  Object.entries(byType)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([callbackType, count]) => notificationV1.CallbackTypeCount.create({ callbackType, count }));

export function recoveryJobMessage(job: RecoveryJobView): notificationV1.RecoveryJob {
  return notificationV1.RecoveryJob.create({
    jobId: job.id,
    mode: MODES_OUT[job.mode],
    sinceEpochMs: job.since.getTime(),
    untilEpochMs: job.until.getTime(),
    state: STATES_OUT[job.state],
    total: job.total,
    queued: job.queued,
    sent: job.sent,
    failed: job.failed,
    createdAtEpochMs: job.createdAt.getTime(),
    finishedAtEpochMs: job.finishedAt?.getTime() ?? 0,
    error: job.error ?? '',
    byType: byTypeMessage(job.byType),
  });
}

export function dryRunMessage(plan: RecoveryPlan): notificationV1.RecoverDeliveriesResponse {
  return notificationV1.RecoverDeliveriesResponse.create({ dryRun: true, total: plan.total, byType: byTypeMessage(plan.byType) });
}

export function startedMessage(job: RecoveryJobView): notificationV1.RecoverDeliveriesResponse {
  return notificationV1.RecoverDeliveriesResponse.create({ dryRun: false, total: job.total, byType: byTypeMessage(job.byType), job: recoveryJobMessage(job) });
}
