import { Areas } from '../api/areas.js';
import type { ApiClient } from '../api/client.js';
import type { CurrentUser } from '../api/types.js';
import { loadInitialWeather } from '../map/initial-load.js';
import { MapView, RAIN_COLOURS } from '../map/map-view.js';
import { WeatherState } from '../map/weather-state.js';
import { StreamReader } from '../stream/stream-reader.js';
import { AlarmsPanel } from './alarms-panel.js';
import { DeliveriesPanel } from './deliveries-panel.js';
import { h } from './dom.js';

/** The stream operation; the console asks for every kind over the plan's whole geography. */
const STREAM_PATH = '/v1/stream';
const WORKER_URL = '/console/maplibre-gl-worker.mjs';

/** What a test or the bench reads from the page (also shown to people in the status line). */
export interface ConsoleHandle {
  stream: StreamReader;
  weather: WeatherState;
  map: MapView;
}

/**
 * The signed-in console: the top bar (who, sign out), the live map with its legend and status line,
 * and the side panel's Alarms and Deliveries tabs. Returns the stop function for sign-out.
 */
export function consoleView(root: HTMLElement, api: ApiClient, onSignOut: () => void): { stop: () => void; handle: ConsoleHandle } {
  const who = h('span', { class: 'who' });
  const status = h('div', { class: 'status', role: 'status', 'aria-live': 'off' }, 'loading…');
  const hint = h('div', { class: 'hint hidden', role: 'status' });
  const mapElement = h('div', { id: 'map', role: 'region', 'aria-label': 'Map of weather and alarms' });
  const legend = h(
    'details',
    { class: 'legend', open: window.innerWidth > 760 },
    h('summary', {}, 'Legend'),
    ...Object.entries(RAIN_COLOURS).map(([name, colour]) => h('span', {}, h('i', { style: `background:${colour}` }), name.toLowerCase().replace('_', ' '))),
    h('br'),
    h('span', {}, h('i', { style: 'background:#ff6a00' }), 'storm cell'),
    h('span', {}, h('i', { style: 'background:#ff5fd2' }), '60-min path'),
    h('span', {}, h('i', { style: 'background:#ffe14d;border-radius:50%' }), 'lightning (10 min)'),
    h('span', {}, h('i', { style: 'background:#4cd08a' }), 'your alarms'),
  );
  const side = h('aside', { class: 'side' });
  const signOut = h('button', { type: 'button', name: 'sign-out' }, 'Sign out');
  const shell = h(
    'div',
    { class: 'shell' },
    h('header', { class: 'topbar' }, h('h1', {}, 'Stormhook'), h('span', { class: 'spacer' }), who, signOut),
    h('div', { class: 'main' }, h('div', { class: 'map-wrap' }, mapElement, legend, status, hint), side),
  );
  root.replaceChildren(shell);

  const map = new MapView(mapElement, WORKER_URL);
  const weather = new WeatherState();
  const areas = new Areas(api);
  const alarms = new AlarmsPanel(api, areas, map, hint);
  const deliveries = new DeliveriesPanel(api, () => alarms.hasWebhook());

  const tabs: [string, HTMLElement, () => Promise<void>][] = [
    ['Alarms', alarms.element, () => alarms.refresh()],
    ['Deliveries', deliveries.element, () => deliveries.refresh()],
  ];
  const nav = h('nav', { role: 'tablist', 'aria-label': 'Panels' });
  for (const [index, [label, panel, refresh]] of tabs.entries()) {
    const button = h('button', { type: 'button', role: 'tab', 'aria-selected': String(index === 0), name: `tab-${label.toLowerCase()}` }, label);
    button.addEventListener('click', () => {
      for (const [, other] of tabs) other.classList.add('hidden');
      panel.classList.remove('hidden');
      nav.querySelectorAll('button').forEach((b) => b.setAttribute('aria-selected', String(b === button)));
      void refresh();
    });
    nav.appendChild(button);
    if (index > 0) panel.classList.add('hidden');
  }
  side.append(nav, ...tabs.map(([, panel]) => panel));

  let streamState = 'connecting';
  const showStatus = () => {
    status.textContent = `${streamState} · ${weather.stormCount} storms · ${weather.rainCount} rain areas · ${weather.strikesSeen} strikes`;
    status.dataset['storms'] = String(weather.stormCount);
    status.dataset['rain'] = String(weather.rainCount);
    status.dataset['strikes'] = String(weather.strikesSeen);
    status.dataset['stream'] = streamState;
  };
  const statusTimer = setInterval(showStatus, 1_000);

  const stream = new StreamReader(STREAM_PATH, () => api.authHeaders(), {
    onState: (state, detail) => {
      streamState = state === 'live' ? '● live' : detail ? `${state}: ${detail}` : state;
      showStatus();
    },
    onEvent: (event) => {
      if (event.event === 'lightning') weather.strike(event.data);
      else if (event.event === 'thunderstorm') weather.thunderstormFromStream(event.data);
      else if (event.event === 'precipitation') weather.rainFromStream(event.data);
    },
  });

  void (async () => {
    const me = await api.get<CurrentUser>('/v1/users/me');
    if (me.ok) who.textContent = `${me.body.username}${me.body.account?.company ? ` · ${me.body.account.company}` : ''}`;
    const provinces = await areas.loadProvinces();
    if (provinces.ok) await map.set('provinces', provinces.body);
    else status.textContent = `boundaries: ${provinces.message}`;
    await map.whenReady();
    // The plan may cover one province: open the map on what the caller can see.
    if (provinces.ok && provinces.body.features.length > 0 && provinces.body.features.length < 20) map.fitTo(provinces.body, 9);
    // POWER_USER and above may ask for rain areas whole; below, they come cropped to a circle (4.1).
    const whole = me.ok && ['POWER_USER', 'EXTENDED_USER', 'ADMIN'].includes(me.body.roles ?? '');
    const loaded = await loadInitialWeather(api, weather, map.view().center, whole);
    if (loaded.problems.length > 0) streamState = loaded.problems.join('; ');
    showStatus();
    map.follow(weather);
    stream.start();
    await alarms.refresh();
  })();

  const stop = () => {
    clearInterval(statusTimer);
    stream.stop();
    map.destroy();
  };
  signOut.addEventListener('click', () => {
    stop();
    void api.signOut().then(onSignOut);
  });
  window.addEventListener('resize', () => map.resize());
  return { stop, handle: { stream, weather, map } };
}
