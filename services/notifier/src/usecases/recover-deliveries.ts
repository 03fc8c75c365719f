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
  /**
   * Callbacks per second a recovery sends (NOTIFIER_RECOVER_RATE_PER_SECOND): its queue entries fall
   * due this far apart, over every instance together, so live traffic keeps its latency beside it.
   */
  ratePerSecond: number;
  /** How far back a recovery may reach: the delivery log's retention, in days. */
  retentionDays: number;
}

const DAY_MS = 86_400_000;
/** How often a running recovery puts its next callbacks in the queue. */
const FEED_INTERVAL_MS = 200;
/** How often it writes its count and heartbeat. */
const HEARTBEAT_MS = 2_000;
/** A recovery still queuing whose heartbeat is older than this was interrupted (its instance stopped). */
const HEARTBEAT_STALE_MS = 60_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Recovery of what a receiver missed (POST /v1/alarms/webhooks/recover): choose the deliveries by mode
 * over the window, then queue one attempt of each (the original id; the body marked recovered) in the
 * background, at the recovery rate. The normal delivery worker sends them, under the endpoint's concurrency limit like live
 * traffic, and they survive restarts like any queued attempt. Progress is counted where attempts end,
 * in the webhook statistics, so reading it never scans the log.
 */
export class RecoverDeliveries {
  private readonly feeding = new Map<string, Promise<void>>();
  private stopping = false;

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
      state: 'RUNNING',
      total: chosen.length,
      queued: 0,
      byType: countByType(chosen),
      createdAt: now,
      heartbeatAt: now,
      error: null,
    };
    await this.deps.jobs.create(job);
    this.feeding.set(job.id, this.feed(job, chosen, endpoint.id));
    return ok(this.view(job, undefined, now));
  }

  /**
   * Puts the chosen callbacks in the delivery queue as they fall due, `ratePerSecond` of them a
   * second, beating the job's heartbeat every few seconds. Fed just in time, the queue stays as small
   * as live traffic keeps it: the worker's look for due work scans the queue on the embedded database,
   * and 100,000 entries waiting there made every look (and every live write behind it) slow.
   */
  private async feed(job: RecoveryJob, chosen: readonly RecoveryCandidate[], endpointId: string): Promise<void> {
    const { store, jobs, stats, clock, logger } = this.deps;
    const start = clock.now().getTime();
    let queued = 0;
    let beat = start;
    try {
      while (queued < chosen.length && !this.stopping) {
        const now = clock.now().getTime();
        const due = Math.min(chosen.length, Math.floor(((now - start) / 1_000) * this.deps.ratePerSecond) + 1);
        if (due > queued) {
          const batch = chosen.slice(queued, due);
          await store.queueRecovery(
            batch.map((c) =>
              queueEntry(c, c.endpointId ?? endpointId, new Date(now), { trigger: 'manual', single: true, attempt: c.attemptCount + 1, recovery: job.id }),
            ),
          );
          for (const c of batch) stats.opened(c.accountId);
          queued = due;
          this.deps.worker?.wake();
        }
        if (now - beat >= HEARTBEAT_MS || queued === chosen.length) {
          await jobs.update(job.id, { queued, heartbeatAt: new Date(now) });
          beat = now;
        }
        if (queued < chosen.length) await sleep(FEED_INTERVAL_MS);
      }
      if (queued === chosen.length) logger.info({ jobId: job.id, accountId: job.accountId, mode: job.mode, callbacks: queued }, 'recovery queued');
    } catch (error) {
      logger.error({ err: error, jobId: job.id, queued }, 'recovery stopped while queuing');
      await jobs
        .update(job.id, { state: 'FAILED', queued, error: `stopped after queuing ${queued} of ${chosen.length}; start it again` })
        .catch(() => undefined);
    } finally {
      this.feeding.delete(job.id);
    }
  }

  /** Stops feeding (the instance is stopping): an unfinished recovery shows as interrupted once its heartbeat is stale. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.feeding.values());
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
    const interrupted = job.state === 'RUNNING' && job.queued < job.total && now.getTime() - job.heartbeatAt.getTime() > HEARTBEAT_STALE_MS;
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
      error: interrupted
        ? `interrupted after queuing ${job.queued} of ${job.total} (its notifier instance stopped); start it again: a failed-mode recovery sends only what is still failed, and recovered callbacks keep their ids`
        : job.error,
    };
  }
}
