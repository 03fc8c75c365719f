import type { AlarmFilter } from '../api/types.js';
import { INTENSITIES, LIGHTNING_TYPES, MAX_RADIUS_M, MIN_RADIUS_M, SEVERITIES, type AlarmDraft } from './alarm-draft.js';
import { checkbox, field, h, select } from './dom.js';

export interface AlarmFormHandlers {
  /** The radius changed: the map redraws the circle. */
  onRadius(radius: number): void;
  /** The area level changed (city, district or neighbourhood of the click). */
  onLevel(level: 'city' | 'district' | 'neighborhood'): void;
  onSave(draft: AlarmDraft): void;
  onBacktest(draft: AlarmDraft): void;
  onCancel(): void;
}

export interface AlarmFormOptions {
  /** No stored webhook yet: the first registration must name the callback URL. */
  needsWebhookUrl: boolean;
  areaLevel: 'city' | 'district' | 'neighborhood';
}

/**
 * The form of a new or edited alarm: recipient, area (level of the clicked area, or the point's
 * radius), filter, and the webhook URL for an account's first alarm. Every input has a label; the
 * browser's own validation names a bad field before the API does.
 */
export function alarmForm(
  draft: AlarmDraft,
  options: AlarmFormOptions,
  handlers: AlarmFormHandlers,
): { element: HTMLElement; webhookUrl: () => string; showPoint: (point: { lng: number; lat: number }, radius: number) => void } {
  const recipient = h('input', { name: 'recipientId', required: true, maxlength: 256, value: draft.recipientId });
  const area: HTMLElement[] = [];
  let radiusInput: HTMLInputElement | undefined;
  let current = draft;
  const pointLine = h('p', { class: 'muted' });
  if (draft.kind === 'point') {
    radiusInput = h('input', { name: 'radius', type: 'number', min: MIN_RADIUS_M, max: MAX_RADIUS_M, step: 100, required: true, value: draft.radius });
    const slider = h('input', {
      type: 'range',
      min: 500,
      max: 50_000,
      step: 500,
      value: Math.min(50_000, draft.radius),
      'aria-label': 'Radius slider (metres)',
    });
    const sync = (value: number) => {
      if (!Number.isFinite(value)) return;
      handlers.onRadius(value);
    };
    slider.addEventListener('input', () => {
      radiusInput!.value = slider.value;
      sync(Number(slider.value));
    });
    radiusInput.addEventListener('input', () => sync(Number(radiusInput!.value)));
    area.push(h('p', { class: 'muted' }, `Point ${draft.point.lat.toFixed(4)}, ${draft.point.lng.toFixed(4)}`), field('Radius (metres)', radiusInput), slider);
  } else if (draft.located) {
    const levels: ['city' | 'district' | 'neighborhood', string][] = [];
    if (draft.located.city) levels.push(['city', `Province: ${draft.located.city.name}`]);
    if (draft.located.district) levels.push(['district', `District: ${draft.located.district.name}`]);
    if (draft.located.neighborhood) levels.push(['neighborhood', `Neighbourhood: ${draft.located.neighborhood.name}`]);
    const group = h('fieldset', {}, h('legend', {}, 'Area'));
    for (const [level, label] of levels) {
      const input = h('input', { type: 'radio', name: 'level', value: level, id: `level-${level}` });
      input.checked = level === options.areaLevel;
      input.addEventListener('change', () => input.checked && handlers.onLevel(level));
      group.appendChild(h('label', { class: 'inline', for: input.id }, input, label));
    }
    area.push(group);
  } else if (draft.kind === 'geometry') {
    area.push(
      h(
        'p',
        { class: 'muted' },
        `Area: city ${draft.boundary.cityId}${draft.boundary.districtId ? `, district ${draft.boundary.districtId}` : ''}${draft.boundary.neighborhoodId ? `, neighbourhood ${draft.boundary.neighborhoodId}` : ''}`,
      ),
    );
  }

  const f = draft.filter;
  const lightningOn = checkbox('Lightning', Boolean(f.lightning), { name: 'lightning' });
  const lightningType = select(LIGHTNING_TYPES, f.lightning?.type ?? '', { name: 'lightningType' });
  const peakKa = h('input', {
    name: 'peakCurrentKa',
    type: 'number',
    min: 0,
    max: 1000,
    step: 1,
    value: f.lightning?.peakCurrent ? Math.abs(f.lightning.peakCurrent) / 1000 : '',
  });
  const stormOn = checkbox('Thunderstorms', Boolean(f.thunderstorm), { name: 'thunderstorm' });
  const severity = select(SEVERITIES, f.thunderstorm?.severityThreshold ?? '', { name: 'severityThreshold' });
  const speed = h('input', { name: 'speedThreshold', type: 'number', min: 0, max: 500, step: 1, value: f.thunderstorm?.speedThreshold ?? '' });
  const rainOn = checkbox('Rain', Boolean(f.precipitation), { name: 'precipitation' });
  const intensityBoxes = INTENSITIES.map((i) =>
    checkbox(i.toLowerCase().replace('_', ' '), (f.precipitation?.intensities ?? []).includes(i), { name: 'intensity', value: i }),
  );
  const webhookUrl = h('input', { name: 'webhookUrl', type: 'url', required: options.needsWebhookUrl, placeholder: 'https://…', pattern: 'https?://.+' });
  const status = h('p', { class: 'error', role: 'alert' });

  const read = (): AlarmDraft | undefined => {
    const filter: AlarmFilter = {};
    if (lightningOn.input.checked) {
      filter.lightning = {};
      if (lightningType.value) filter.lightning.type = lightningType.value;
      if (peakKa.value !== '') filter.lightning.peakCurrent = Number(peakKa.value) * 1000;
    }
    if (stormOn.input.checked) {
      filter.thunderstorm = {};
      if (severity.value) filter.thunderstorm.severityThreshold = severity.value;
      if (speed.value !== '') filter.thunderstorm.speedThreshold = Number(speed.value);
    }
    if (rainOn.input.checked) filter.precipitation = { intensities: intensityBoxes.filter((b) => b.input.checked).map((b) => b.input.value) };
    if (!filter.lightning && !filter.thunderstorm && !filter.precipitation) {
      status.textContent = 'Choose at least one of lightning, thunderstorms and rain.';
      return undefined;
    }
    status.textContent = '';
    const recipientId = recipient.value.trim();
    return current.kind === 'point'
      ? { ...current, recipientId, radius: Number(radiusInput?.value ?? current.radius), filter }
      : { ...current, recipientId, filter };
  };

  const form = h(
    'form',
    { 'aria-label': draft.registrationId ? 'Edit alarm' : 'New alarm', novalidate: false },
    h('h2', {}, draft.registrationId ? 'Edit alarm' : draft.kind === 'point' ? 'New point alarm' : 'New area alarm'),
    field('Recipient id (your reference)', recipient),
    ...area,
    h('fieldset', {}, h('legend', {}, 'Lightning'), lightningOn.wrap, field('Discharge type', lightningType), field('Minimum peak current (kA)', peakKa)),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Thunderstorms'),
      stormOn.wrap,
      h('div', { class: 'grid2' }, field('Minimum severity', severity), field('Minimum speed (km/h)', speed)),
    ),
    h('fieldset', {}, h('legend', {}, 'Rain'), rainOn.wrap, h('div', {}, ...intensityBoxes.map((b) => b.wrap))),
    options.needsWebhookUrl ? field('Webhook URL (your account has none yet)', webhookUrl) : null,
    status,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', class: 'primary' }, draft.registrationId ? 'Save changes' : 'Register alarm'),
      h(
        'button',
        {
          type: 'button',
          name: 'backtest',
          onclick: () => {
            const d = read();
            // A back-test sends no callback: the webhook URL may still be empty.
            if (d && [recipient, ...(radiusInput ? [radiusInput] : [])].every((input) => input.reportValidity())) handlers.onBacktest(d);
          },
        },
        'Back-test 7 days',
      ),
      h('button', { type: 'button', onclick: () => handlers.onCancel() }, 'Cancel'),
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const d = read();
    if (d && form.reportValidity()) handlers.onSave(d);
  });
  return {
    element: form,
    webhookUrl: () => webhookUrl.value.trim(),
    // The map's handles moved the point or its edge: the form follows.
    showPoint: (point, radius) => {
      if (current.kind !== 'point' || !radiusInput) return;
      current = { ...current, point, radius };
      radiusInput.value = String(radius);
      pointLine.textContent = `Point ${point.lat.toFixed(4)}, ${point.lng.toFixed(4)}`;
    },
  };
}
