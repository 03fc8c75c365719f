import type { Logger } from '@stormhook/logger';
import { newId } from '../domain/ids.js';
import { fail, notFound, ok, validation, type Result } from '../domain/notifier-error.js';
import { chooseFromWindow, chooseLatest, countByType, eventsOfWindow, type RecoveryMode, type RecoveryState } from '../domain/recovery.js';
import type { Clock } from '../ports/clock.js';
import { queueEntry, type DeliveryStore, type RecoveryCandidate } from '../ports/delivery-store.js';
import type { EndpointRepository } from '../ports/endpoint-repository.js';
import type { RecoveryJob, RecoveryJobStore } from '../ports/recovery-job-store.js';
import type { WebhookStatsSink } from '../ports/webhook-stats-sink.js';
import { NO_ENDPOINT } from './endpoint-usecases.js';
import type { WebhookStatsReader } from './webhook-stats-reader.js';

export interface RecoveryRequest {
  since: Date;
  until: Date;
  mode: RecoveryMode;
}

export interface RecoveryPlan {
  total: number;
  byType: Record<string, number>;
}

export interface RecoveryJobView extends RecoveryPlan {
  id: string;
  mode: RecoveryMode;
  since: Date;
  until: Date;
  state: RecoveryState;
  queued: number;
  sent: number;
  failed: number;
  createdAt: Date;
  /** When the last callback was sent or failed, once DONE. */
  finishedAt: Date | null;
  error: string | null;
}

export interface RecoverDeliveriesDeps {
  store: DeliveryStore;
  jobs: RecoveryJobStore;
  endpoints: Pick<EndpointRepository, 'findByAccount'>;
  stats: WebhookStatsSink;
  progress: Pick<WebhookStatsReader, 'merged'>;
  clock: Clock;
  logger: Logger;
  /** Woken once a recovery is queued, so its callbacks start at once. */
  worker?: { wake(): void } | undefined;
  /** Callbacks one recovery may send (NOTIFIER_RECOVER_MAX_CALLBACKS). */
  maxCallbacks: number;
  /** How far back a recovery may reach: the delivery log's retention, in days. */
  retentionDays: number;
}

const DAY_MS = 86_400_000;
/** A QUEUING job whose heartbeat is older than this was interrupted (its instance stopped). */
const HEARTBEAT_STALE_MS = 60_000;
/** Queue entries written between two heartbeats. */
const QUEUE_CHUNK = 2_000;

/**
 * Recovery of what a receiver missed (POST /v1/alarms/webhooks/recover): choose the deliveries by mode
 * over the window, then queue one attempt of each (the original id; the body marked recovered) in the
 * background. The normal delivery worker sends them, under the endpoint's concurrency limit like live
 * traffic, and they survive restarts like any queued attempt. Progress is counted where attempts end,
 * in the webhook statistics, so reading it never scans the log.
 */
export class RecoverDeliveries {
  constructor(private readonly deps: RecoverDeliveriesDeps) {}

  private validate(request: RecoveryRequest, now: Date): Result<RecoveryRequest> {
    const { since, until } = request;
    if (!(since < until)) return fail(validation('since', 'must be before until'));
    if (until.getTime() > now.getTime() + 60_000) return fail(validation('until', 'must not be in the future'));
    const oldest = now.getTime() - this.deps.retentionDays * DAY_MS;
    if (since.getTime() < oldest) {
      return fail(validation('since', `must be within the ${this.deps.retentionDays} days the delivery log keeps (at or after ${oldest} epoch milliseconds)`));
    }
    return ok(request);
  }

  private async choose(accountId: string, request: RecoveryRequest): Promise<RecoveryCandidate[]> {
    const window = await this.deps.store.recoveryCandidates(accountId, request.since, request.until);
    if (request.mode !== 'latest-state') return chooseFromWindow(request.mode, window);
    return chooseLatest(await this.deps.store.latestOfEvents(accountId, eventsOfWindow(window)));
  }

  /** What a recovery would send, sending nothing. */
  async dryRun(accountId: string, request: RecoveryRequest): Promise<Result<RecoveryPlan>> {
    const valid = this.validate(request, this.deps.clock.now());
    if (!valid.ok) return valid;
    if (!(await this.deps.endpoints.findByAccount(accountId))) return fail(notFound(NO_ENDPOINT));
    const chosen = await this.choose(accountId, request);
    return ok({ total: chosen.length, byType: countByType(chosen) });
  }

  /** Starts a recovery: answers once it is stored; the callbacks are queued in the background. */
  async start(accountId: string, request: RecoveryRequest): Promise<Result<RecoveryJobView>> {
    const now = this.deps.clock.now();
    const valid = this.validate(request, now);
    if (!valid.ok) return valid;
    const endpoint = await this.deps.endpoints.findByAccount(accountId);
    if (!endpoint) return fail(notFound(NO_ENDPOINT));
    if (endpoint.status === 'disabled') return fail(validation('webhook', 'the webhook endpoint is disabled; enable it first, then recover'));
    const chosen = await this.choose(accountId, request);
    if (chosen.length > this.deps.maxCallbacks) {
      return fail(
        validation(
          'since',
          `the window holds ${chosen.length} callbacks to send, more than the ${this.deps.maxCallbacks} one recovery may send: narrow since and until`,
        ),
      );
    }
    const job: RecoveryJob = {
      id: newId('rcv', now.getTime()),
      accountId,
      ...request,
      state: 'QUEUING',
      total: chosen.length,
      queued: 0,
      byType: countByType(chosen),
      createdAt: now,
      heartbeatAt: now,
      error: null,
    };
    await this.deps.jobs.create(job);
    void this.queue(job, chosen, endpoint.id);
    return ok(this.view(job, undefined, now));
  }

  /** Queues the chosen callbacks a chunk at a time, beating the job's heartbeat between chunks. */
  private async queue(job: RecoveryJob, chosen: readonly RecoveryCandidate[], endpointId: string): Promise<void> {
    const { store, jobs, stats, clock, logger } = this.deps;
    try {
      for (let i = 0; i < chosen.length; i += QUEUE_CHUNK) {
        const now = clock.now();
        const chunk = chosen.slice(i, i + QUEUE_CHUNK);
        await store.queueRecovery(
          chunk.map((c) => queueEntry(c, c.endpointId ?? endpointId, now, { trigger: 'manual', single: true, attempt: c.attemptCount + 1, recovery: job.id })),
        );
        for (const c of chunk) stats.opened(c.accountId);
        await jobs.update(job.id, { queued: i + chunk.length, heartbeatAt: now });
        this.deps.worker?.wake();
      }
      await jobs.update(job.id, { state: 'RUNNING', queued: chosen.length, heartbeatAt: clock.now() });
      logger.info({ jobId: job.id, accountId: job.accountId, mode: job.mode, callbacks: chosen.length }, 'recovery queued');
    } catch (error) {
      logger.error({ err: error, jobId: job.id }, 'recovery stopped while queuing');
      await jobs
        .update(job.id, { state: 'FAILED', error: 'stopped while queuing; start it again (recovered callbacks keep their ids)' })
        .catch(() => undefined);
    }
  }

  async get(accountId: string, jobId: string): Promise<Result<RecoveryJobView>> {
    const job = await this.deps.jobs.get(jobId);
    if (!job || job.accountId !== accountId) return fail(notFound('Recovery not found'));
    const now = this.deps.clock.now();
    const progress = (await this.deps.progress.merged(accountId, now.getTime())).recoveries[jobId];
    return ok(this.view(job, progress, now));
  }

  private view(job: RecoveryJob, progress: { sent: number; failed: number; lastAt: number } | undefined, now: Date): RecoveryJobView {
    const sent = progress?.sent ?? 0;
    const failed = progress?.failed ?? 0;
    const interrupted = job.state === 'QUEUING' && now.getTime() - job.heartbeatAt.getTime() > HEARTBEAT_STALE_MS;
    const done = job.state === 'RUNNING' && sent + failed >= job.total;
    const state: RecoveryState = interrupted ? 'FAILED' : done ? 'DONE' : job.state;
    return {
      id: job.id,
      mode: job.mode,
      since: job.since,
      until: job.until,
      state,
      total: job.total,
      byType: job.byType,
      queued: job.queued,
      sent,
      failed,
      createdAt: job.createdAt,
      finishedAt: done ? new Date(progress?.lastAt ?? now.getTime()) : null,
      error: interrupted ? 'interrupted while queuing (its notifier instance stopped); start it again: recovered callbacks keep their ids' : job.error,
    };
  }
}
