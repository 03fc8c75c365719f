import type { BacktestAnswer } from '../api/types.js';
import { barChart, lineChart } from './charts.js';
import { h } from './dom.js';

/** What a draft would have sent over the window: callbacks per day, per type, and the threshold sweep. */
export function backtestView(answer: BacktestAnswer): HTMLElement {
  const days = answer.days.map((d) => ({ label: d.day.slice(5), value: d.callbacks }));
  const sweep = answer.sweep;
  return h(
    'section',
    { class: 'backtest', 'aria-label': 'Back-test result' },
    h('h3', {}, `Back-test: ${answer.callbacks} callback${answer.callbacks === 1 ? '' : 's'} in ${answer.days.length} days`),
    barChart('Callbacks per day', days),
    sweep && sweep.points.length > 0
      ? lineChart(
          `Alarms started by ${sweep.field} (current ${sweep.current})`,
          sweep.points.map((p) => ({ label: p.value, value: p.callbacks, mark: p.value === sweep.current })),
        )
      : h('p', { class: 'muted' }, 'No threshold to sweep for this filter.'),
    answer.byType.length > 0
      ? h(
          'table',
          {},
          h('thead', {}, h('tr', {}, h('th', {}, 'callback'), h('th', {}, 'stage'), h('th', {}, 'count'))),
          h('tbody', {}, ...answer.byType.map((t) => h('tr', {}, h('td', {}, t.callbackType), h('td', {}, t.stage ?? ''), h('td', {}, t.callbacks)))),
        )
      : null,
    ...(answer.warnings ?? []).map((w) => h('p', { class: 'warn' }, w)),
  );
}
