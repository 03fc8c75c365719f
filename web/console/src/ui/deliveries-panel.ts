import type { ApiClient } from '../api/client.js';
import type { Delivery, DeliveryPage, HealthWindow, RecoveryAnswer, RecoveryJob, WebhookHealth } from '../api/types.js';
import { barChart } from './charts.js';
import { field, h, replace, select, time } from './dom.js';

const WINDOWS: [keyof Pick<WebhookHealth, 'lastHour' | 'last24Hours' | 'last7Days'>, string][] = [
  ['lastHour', '1 h'],
  ['last24Hours', '24 h'],
  ['last7Days', '7 d'],
];

const rate = (w: HealthWindow) => (w.successRate === null ? 0 : Math.round(w.successRate * 1000) / 10);

/**
 * The Deliveries tab: the webhook's health (state, success rate and latency per window, failures by
 * class with an example), the attempt list with redelivery, and recovery with its dry run.
 */
export class DeliveriesPanel {
  readonly element = h('section', { 'aria-label': 'Deliveries' });
  private readonly health = h('div', { 'aria-live': 'polite' });
  private readonly list = h('div');
  private readonly recovery = h('div', { role: 'status', class: 'recovery' });
  private readonly message = h('p', { role: 'status' });

  constructor(
    private readonly api: ApiClient,
    private readonly hasWebhook: () => boolean,
  ) {
    const since = h('input', { type: 'datetime-local', name: 'since', required: true });
    since.value = localInput(Date.now() - 86_400_000);
    const mode = select(['failed', 'all', 'latest-state'], 'failed', { name: 'mode' });
    const recover = (dryRun: boolean) => void this.recover(new Date(since.value).getTime(), mode.value, dryRun);
    this.element.append(
      h('h2', {}, 'Webhook health'),
      h('div', { class: 'actions' }, h('button', { type: 'button', onclick: () => void this.refresh() }, 'Reload')),
      this.message,
      this.health,
      h('h2', {}, 'Deliveries'),
      this.list,
      h('h2', {}, 'Recover'),
      h(
        'form',
        { 'aria-label': 'Recover deliveries', onsubmit: (e: Event) => e.preventDefault() },
        h('div', { class: 'grid2' }, field('Created since', since), field('Mode', mode)),
        h(
          'div',
          { class: 'actions' },
          h('button', { type: 'button', name: 'dry-run', onclick: () => recover(true) }, 'Dry run'),
          h('button', { type: 'button', class: 'primary', name: 'recover', onclick: () => recover(false) }, 'Recover'),
        ),
      ),
      this.recovery,
    );
  }

  async refresh(): Promise<void> {
    if (!this.hasWebhook()) {
      replace(this.health, h('p', { class: 'muted' }, 'No webhook yet: register an alarm first.'));
      replace(this.list);
      return;
    }
    const [health, page] = await Promise.all([
      this.api.get<WebhookHealth>('/v1/alarms/webhooks/health'),
      this.api.post<DeliveryPage>('/v1/deliveries/page', { pageNumber: 0, pageSize: 50 }),
    ]);
    if (health.ok) replace(this.health, this.healthView(health.body));
    else
      replace(
        this.health,
        h('p', { class: health.status === 404 ? 'muted' : 'error' }, health.status === 404 ? 'No webhook yet: register an alarm first.' : health.message),
      );
    if (page.ok) replace(this.list, this.listView(page.body));
    else replace(this.list, h('p', { class: 'error' }, page.message));
  }

  private healthView(health: WebhookHealth): HTMLElement {
    return h(
      'div',
      { class: 'health' },
      h(
        'div',
        { class: 'kv' },
        h('span', { class: 'muted' }, 'state'),
        h('span', {}, h('span', { class: `pill ${health.state}`, 'data-health-state': health.state }, health.state)),
        h('span', { class: 'muted' }, 'last success'),
        h('span', {}, time(health.lastSuccessEpochMs)),
        h('span', { class: 'muted' }, 'failures in a row'),
        h('span', {}, health.failuresInRow),
        h('span', { class: 'muted' }, 'waiting'),
        h('span', {}, health.waitingDeliveries),
        health.disabledReason ? h('span', { class: 'muted' }, 'disabled') : null,
        health.disabledReason ? h('span', { class: 'error' }, health.disabledReason) : null,
      ),
      h(
        'table',
        { 'aria-label': 'Attempts per window' },
        h(
          'thead',
          {},
          h('tr', {}, h('th', {}, 'window'), h('th', {}, 'attempts'), h('th', {}, 'succeeded'), h('th', {}, 'failed'), h('th', {}, 'p50 / p99 ms')),
        ),
        h(
          'tbody',
          {},
          ...WINDOWS.map(([key, label]) => {
            const w = health[key];
            return h(
              'tr',
              { 'data-window': key },
              h('td', {}, label),
              h('td', {}, w.attempts),
              h('td', {}, w.succeeded),
              h('td', {}, w.failed),
              h('td', {}, `${w.latencyMs?.p50 ?? '—'} / ${w.latencyMs?.p99 ?? '—'}`),
            );
          }),
        ),
      ),
      barChart(
        'Success rate per window',
        WINDOWS.map(([key, label]) => ({ label, value: rate(health[key]) })),
        '%',
      ),
      barChart(
        'Latency p50 / p95 / p99 in the last 24 h',
        (['p50', 'p95', 'p99'] as const).map((p) => ({ label: p, value: health.last24Hours.latencyMs?.[p] ?? 0 })),
        ' ms',
      ),
      health.failures.length > 0
        ? h(
            'table',
            { 'aria-label': 'Failures by class' },
            h('thead', {}, h('tr', {}, h('th', {}, 'class'), h('th', {}, 'status'), h('th', {}, 'count'), h('th', {}, 'example'))),
            h(
              'tbody',
              {},
              ...health.failures.map((f) =>
                h(
                  'tr',
                  {},
                  h('td', {}, f.failureClass),
                  h('td', {}, f.status ?? ''),
                  h('td', {}, f.count),
                  h('td', {}, f.example ? `${f.example.notificationId ?? ''} ${f.example.error ?? ''}` : ''),
                ),
              ),
            ),
          )
        : h('p', { class: 'muted' }, 'No failures in the last 7 days.'),
    );
  }

  private listView(page: DeliveryPage): HTMLElement {
    if (page.deliveries.length === 0) return h('p', { class: 'muted' }, 'No deliveries yet.');
    return h(
      'table',
      { 'aria-label': 'Deliveries' },
      h('thead', {}, h('tr', {}, h('th', {}, 'created'), h('th', {}, 'callback'), h('th', {}, 'status'), h('th', {}, 'tries'), h('th', {}, ''))),
      h('tbody', {}, ...page.deliveries.map((d) => this.row(d))),
    );
  }

  private row(d: Delivery): HTMLElement {
    return h(
      'tr',
      { 'data-notification-id': d.notificationId },
      h('td', {}, new Date(d.createdAtEpochMs).toLocaleTimeString()),
      h('td', {}, `${d.callbackType ?? d.eventKind ?? ''}${d.test ? ' (test)' : ''}`, h('div', { class: 'muted' }, d.recipientId ?? '')),
      h('td', {}, h('span', { class: `pill ${d.status}` }, d.status), d.lastFailureClass ? h('div', { class: 'error' }, d.lastFailureClass) : null),
      h('td', {}, d.attemptCount),
      h('td', {}, h('button', { type: 'button', 'aria-label': `Redeliver ${d.notificationId}`, onclick: () => void this.redeliver(d) }, 'Redeliver')),
    );
  }

  private async redeliver(d: Delivery): Promise<void> {
    const answer = await this.api.post<Delivery>(`/v1/deliveries/${encodeURIComponent(d.notificationId)}/redeliver`);
    this.message.textContent = answer.ok ? `Redelivery of ${d.notificationId} queued.` : `Not redelivered: ${answer.message}`;
    this.message.className = answer.ok ? 'ok' : 'error';
    await this.refresh();
  }

  private async recover(since: number, mode: string, dryRun: boolean): Promise<void> {
    if (!Number.isFinite(since)) {
      replace(this.recovery, h('p', { class: 'error' }, 'Choose the time to recover from.'));
      return;
    }
    const answer = await this.api.post<RecoveryAnswer>('/v1/alarms/webhooks/recover', { since, mode, dryRun });
    if (!answer.ok) {
      replace(this.recovery, h('p', { class: 'error' }, `Recovery refused: ${answer.message}`));
      return;
    }
    const byType = Object.entries(answer.body.byType ?? {})
      .map(([type, n]) => `${type}: ${n}`)
      .join(', ');
    replace(
      this.recovery,
      h('p', {}, `${dryRun ? 'Would send' : 'Sending'} ${answer.body.total} callback${answer.body.total === 1 ? '' : 's'}${byType ? ` (${byType})` : ''}.`),
    );
    if (answer.body.job) void this.follow(answer.body.job);
  }

  /** Polls a recovery job until it is done (or a minute has passed: the page can be reloaded). */
  private async follow(job: RecoveryJob): Promise<void> {
    for (let i = 0; i < 60 && job.state === 'RUNNING'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const answer = await this.api.get<RecoveryJob>(`/v1/alarms/webhooks/recover/${encodeURIComponent(job.jobId)}`);
      if (!answer.ok) break;
      job = answer.body;
      replace(
        this.recovery,
        h('p', {}, `Recovery ${job.jobId}: ${job.state}, ${job.sent} sent, ${job.failed} failed of ${job.total}${job.error ? ` (${job.error})` : ''}`),
      );
    }
  }
}

/** A datetime-local input's value for a time (local clock, minutes). */
function localInput(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}
