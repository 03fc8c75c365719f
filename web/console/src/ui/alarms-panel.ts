import type { Areas } from '../api/areas.js';
import type { ApiClient } from '../api/client.js';
import type { BacktestAnswer, GeometryRegistration, PointRegistration, RegistrationPage, Webhook } from '../api/types.js';
import { circlePolygon, collection, type Feature } from '../map/geojson.js';
import type { MapView } from '../map/map-view.js';
import { alarmForm } from './alarm-form.js';
import { bodyOf, boundaryAt, DEFAULT_FILTER, draftOf, filterSummary, kindPath, type Alarm, type AlarmDraft } from './alarm-draft.js';
import { backtestView } from './backtest-view.js';
import { h, replace } from './dom.js';

type PickMode = 'none' | 'area' | 'point';

const BACKTEST_DAYS = 7;

/**
 * The Alarms tab: the account's geometry and point alarms (listed, drawn on the map, edited,
 * deleted), and new ones made by clicking an area or dropping a point, back-tested before saving.
 */
export class AlarmsPanel {
  readonly element = h('section', { 'aria-label': 'Alarms' });
  private readonly list = h('div', { 'aria-live': 'polite' });
  private readonly editor = h('div');
  private readonly message = h('p', { role: 'status' });
  private readonly hint: HTMLElement;
  private alarms: Alarm[] = [];
  private pick: PickMode = 'none';
  /** The account's stored webhook, as its registrations name it (every registration refers to it). */
  private webhook: Webhook | undefined;
  private draft: AlarmDraft | undefined;
  private areaLevel: 'city' | 'district' | 'neighborhood' = 'district';
  private handles: { setRadius(radiusM: number): void; remove(): void } | undefined;

  constructor(
    private readonly api: ApiClient,
    private readonly areas: Areas,
    private readonly map: MapView,
    hint: HTMLElement,
  ) {
    this.hint = hint;
    this.element.append(
      h('h2', {}, 'Alarms'),
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'button', name: 'pick-area', onclick: () => this.startPick('area') }, 'New alarm: click an area'),
        h('button', { type: 'button', name: 'pick-point', onclick: () => this.startPick('point') }, 'New alarm: drop a point'),
        h('button', { type: 'button', onclick: () => void this.refresh() }, 'Reload'),
      ),
      this.message,
      this.editor,
      this.list,
    );
    map.onClick((lngLat) => void this.clicked(lngLat));
  }

  /** Whether the account has a webhook (it has alarms): the Deliveries tab asks for its health only then. */
  hasWebhook(): boolean {
    return this.webhook !== undefined;
  }

  async refresh(): Promise<void> {
    const [geometries, points] = await Promise.all([
      this.api.post<RegistrationPage<GeometryRegistration>>('/v1/alarms/geometries/page', { pageNumber: 0, pageSize: 100 }),
      this.api.post<RegistrationPage<PointRegistration>>('/v1/alarms/points/page', { pageNumber: 0, pageSize: 100 }),
    ]);
    this.alarms = [];
    const problems: string[] = [];
    if (geometries.ok) this.alarms.push(...geometries.body.registrations.map((registration): Alarm => ({ kind: 'geometry', registration })));
    else if (geometries.status !== 403) problems.push(`area alarms: ${geometries.message}`);
    if (points.ok) this.alarms.push(...points.body.registrations.map((registration): Alarm => ({ kind: 'point', registration })));
    else if (points.status !== 403) problems.push(`point alarms: ${points.message}`);
    this.say(problems.join('; '), problems.length > 0);
    // An account without alarms may have no webhook yet: the first registration then names its URL.
    // (Asking GET /v1/alarms/webhooks would answer 404 then, which the browser logs as an error.)
    this.webhook = this.alarms.find((a) => a.registration.webhook?.accountId)?.registration.webhook;
    await this.render();
  }

  private say(text: string, error = false): void {
    this.message.textContent = text;
    this.message.className = error ? 'error' : 'ok';
  }

  private async render(): Promise<void> {
    const items = await Promise.all(
      this.alarms.map(async (alarm) => {
        const r = alarm.registration;
        const where =
          alarm.kind === 'geometry'
            ? ((await this.areas.outline(alarm.registration.boundary))?.name ?? `city ${alarm.registration.boundary.cityId}`)
            : `${(alarm.registration.boundary.radius / 1000).toFixed(1)} km around ${alarm.registration.boundary.point.lat.toFixed(3)}, ${alarm.registration.boundary.point.lng.toFixed(3)}`;
        return h(
          'div',
          { class: 'alarm-item', 'data-registration-id': r.registrationId },
          h('div', { class: 'row' }, h('strong', { class: 'grow' }, where), h('span', { class: 'pill' }, alarm.kind === 'geometry' ? 'area' : 'point')),
          h('div', { class: 'muted' }, `${r.recipientId} · ${filterSummary(r.filter)}`),
          h(
            'div',
            { class: 'actions' },
            h('button', { type: 'button', onclick: () => void this.show(alarm) }, 'Show'),
            h('button', { type: 'button', onclick: () => this.edit(alarm) }, 'Edit'),
            h('button', { type: 'button', class: 'danger', onclick: () => void this.remove(alarm) }, 'Delete'),
          ),
        );
      }),
    );
    replace(
      this.list,
      items.length === 0 ? h('p', { class: 'muted' }, 'No alarms yet.') : h('h3', {}, `${items.length} alarm${items.length === 1 ? '' : 's'}`),
      ...items,
    );
    await this.drawRegistrations();
  }

  private async drawRegistrations(): Promise<void> {
    const features: Feature[] = [];
    for (const alarm of this.alarms) {
      const id = alarm.registration.registrationId;
      if (alarm.kind === 'point') {
        features.push({
          type: 'Feature',
          geometry: circlePolygon(alarm.registration.boundary.point, alarm.registration.boundary.radius),
          properties: { registrationId: id },
        });
      } else {
        const outline = await this.areas.outline(alarm.registration.boundary);
        if (outline) features.push({ type: 'Feature', geometry: outline.geometry, properties: { registrationId: id, name: outline.name } });
      }
    }
    await this.map.set('registrations', collection(features));
  }

  private async show(alarm: Alarm): Promise<void> {
    const geometry =
      alarm.kind === 'point'
        ? circlePolygon(alarm.registration.boundary.point, alarm.registration.boundary.radius)
        : (await this.areas.outline(alarm.registration.boundary))?.geometry;
    if (geometry) this.map.fitTo(collection([{ type: 'Feature', geometry, properties: {} }]));
  }

  private startPick(mode: PickMode): void {
    this.pick = mode;
    const what = mode === 'area' ? 'Click a district or neighbourhood on the map' : 'Click the map to drop the alarm’s centre';
    this.hint.textContent = `${what}; or move the map with the arrow keys and press Enter to pick its centre (Esc cancels)`;
    this.hint.classList.remove('hidden');
    this.map.setCursor('crosshair');
    // Keyboard users pick the centre of the view: the map pans with the arrow keys once focused.
    this.map.map.getCanvas().focus();
    const keys = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' && event.key !== 'Enter') return;
      document.removeEventListener('keydown', keys);
      if (event.key === 'Escape') this.stopPick();
      else if (this.pick !== 'none') void this.clicked(this.map.view().center);
    };
    document.addEventListener('keydown', keys);
  }

  private stopPick(): void {
    this.pick = 'none';
    this.hint.classList.add('hidden');
    this.map.setCursor('');
  }

  private async clicked(lngLat: { lng: number; lat: number }): Promise<void> {
    const mode = this.pick;
    if (mode === 'none') return;
    this.stopPick();
    if (mode === 'point') {
      this.openEditor({ kind: 'point', recipientId: 'console-point', point: { lng: lngLat.lng, lat: lngLat.lat }, radius: 5_000, filter: DEFAULT_FILTER });
      return;
    }
    const located = await this.areas.locate(lngLat);
    if (!located.ok) {
      this.say(`That place: ${located.message}`, true);
      return;
    }
    this.areaLevel = located.body.neighborhood ? 'neighborhood' : 'district';
    const boundary = boundaryAt(located.body, this.areaLevel);
    if (!boundary) {
      this.say('No province there: click inside Turkey or Northern Cyprus.', true);
      return;
    }
    this.openEditor({ kind: 'geometry', recipientId: 'console-area', boundary, located: located.body, filter: DEFAULT_FILTER });
  }

  private edit(alarm: Alarm): void {
    this.openEditor(draftOf(alarm));
  }

  private openEditor(draft: AlarmDraft): void {
    this.draft = draft;
    const backtest = h('div');
    const form = alarmForm(
      draft,
      { needsWebhookUrl: !this.webhook && !draft.registrationId, areaLevel: this.areaLevel },
      {
        onRadius: (radius) => {
          if (this.draft?.kind === 'point') {
            this.draft = { ...this.draft, radius };
            this.handles?.setRadius(radius);
            void this.drawDraft();
          }
        },
        onLevel: (level) => {
          if (this.draft?.kind === 'geometry' && this.draft.located) {
            this.areaLevel = level;
            const boundary = boundaryAt(this.draft.located, level);
            if (boundary) this.draft = { ...this.draft, boundary };
            void this.drawDraft();
          }
        },
        onSave: (d) => void this.save(d, form.webhookUrl()),
        onBacktest: (d) => void this.backtest(d, backtest),
        onCancel: () => this.closeEditor(),
      },
    );
    replace(this.editor, form.element, backtest);
    this.handles?.remove();
    this.handles =
      draft.kind === 'point'
        ? this.map.editCircle(draft.point, draft.radius, (point, radius) => {
            if (this.draft?.kind !== 'point') return;
            this.draft = { ...this.draft, point, radius };
            form.showPoint(point, radius);
            void this.drawDraft();
          })
        : undefined;
    void this.drawDraft();
    form.element.querySelector<HTMLInputElement>('input[name="recipientId"]')?.focus();
  }

  private closeEditor(): void {
    this.draft = undefined;
    this.handles?.remove();
    this.handles = undefined;
    replace(this.editor);
    void this.map.set('draft', collection([]));
  }

  private async drawDraft(): Promise<void> {
    const d = this.draft;
    if (!d) return;
    const geometry = d.kind === 'point' ? circlePolygon(d.point, d.radius) : (await this.areas.outline(d.boundary))?.geometry;
    await this.map.set('draft', collection(geometry ? [{ type: 'Feature', geometry, properties: {} }] : []));
  }

  private async save(draft: AlarmDraft, webhookUrl: string): Promise<void> {
    // Register and update both name the webhook: the account's stored one, or (first alarm) its URL.
    const body = bodyOf(draft);
    body['webhook'] = this.webhook?.accountId
      ? { accountId: this.webhook.accountId }
      : { url: webhookUrl, httpMethod: 'POST', contentType: 'application/json' };
    const path = `/v1/alarms/${kindPath(draft.kind)}/${draft.registrationId ? 'update' : 'register'}`;
    const answer = draft.registrationId
      ? await this.api.put<{ registrationId: string; warnings?: string[] }>(path, body)
      : await this.api.post<{ registrationId: string; warnings?: string[] }>(path, body);
    if (!answer.ok) {
      this.say(`Not saved: ${answer.message}`, true);
      return;
    }
    const warnings = answer.body.warnings ?? [];
    this.say(`Saved alarm ${answer.body.registrationId}.${warnings.length > 0 ? ` ${warnings.join(' ')}` : ''}`);
    this.closeEditor();
    await this.refresh();
  }

  private async remove(alarm: Alarm): Promise<void> {
    const id = alarm.registration.registrationId;
    if (!window.confirm(`Delete the alarm ${alarm.registration.recipientId} (${id})?`)) return;
    const answer = await this.api.delete(`/v1/alarms/${kindPath(alarm.kind)}/unregister/${encodeURIComponent(id)}`);
    this.say(answer.ok ? `Deleted alarm ${id}.` : `Not deleted: ${answer.message}`, !answer.ok);
    await this.refresh();
  }

  private async backtest(draft: AlarmDraft, into: HTMLElement): Promise<void> {
    replace(into, h('p', { class: 'muted' }, 'Back-testing…'));
    const to = Date.now();
    const answer = await this.api.post<BacktestAnswer>(`/v1/alarms/${kindPath(draft.kind)}/backtest`, {
      ...bodyOf(draft),
      from: to - BACKTEST_DAYS * 86_400_000,
      to,
    });
    replace(into, answer.ok ? backtestView(answer.body) : h('p', { class: 'error' }, `Back-test failed: ${answer.message}`));
    into.scrollIntoView({ block: 'nearest' });
  }
}
