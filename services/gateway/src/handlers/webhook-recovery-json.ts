import { enumName, notificationV1 } from '@stormhook/proto';

const MODES: Readonly<Record<string, string>> = {
  RECOVERY_MODE_FAILED: 'failed',
  RECOVERY_MODE_ALL: 'all',
  RECOVERY_MODE_LATEST_STATE: 'latest-state',
};
/** The public modes as the notifier's enum (schemas/webhook-recovery.ts admits only these). */
export const RECOVERY_MODE_VALUES: Readonly<Record<string, notificationV1.RecoveryMode>> = Object.fromEntries(
  Object.entries(MODES).map(([wire, name]) => [name, wire as notificationV1.RecoveryMode]),
);

const byTypeJson = (counts: readonly notificationV1.CallbackTypeCount[]): Record<string, number> =>
  Object.fromEntries(counts.map((c) => [c.callbackType, Number(c.count)]));

export function recoveryJobJson(job: notificationV1.RecoveryJob | null | undefined): Record<string, unknown> {
  if (!job) throw new Error('the notifier answered without a recovery job');
  return {
    jobId: job.jobId,
    mode: MODES[job.mode] ?? job.mode,
    since: Number(job.sinceEpochMs),
    until: Number(job.untilEpochMs),
    state: enumName(notificationV1.RecoveryState, job.state) ?? 'UNSPECIFIED',
    total: Number(job.total),
    queued: Number(job.queued),
    sent: Number(job.sent),
    failed: Number(job.failed),
    byType: byTypeJson(job.byType),
    createdAtEpochMs: Number(job.createdAtEpochMs),
    finishedAtEpochMs: Number(job.finishedAtEpochMs) > 0 ? Number(job.finishedAtEpochMs) : null,
    error: job.error === '' ? null : job.error,
  };
}

export function recoverAnswerJson(answer: notificationV1.RecoverDeliveriesResponse): Record<string, unknown> {
  return {
    dryRun: answer.dryRun,
    total: Number(answer.total),
    byType: byTypeJson(answer.byType),
    job: answer.dryRun ? null : recoveryJobJson(answer.job),
  };
}
