import { h } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';

function svg(tag: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

export interface ChartPoint {
  label: string;
  value: number;
  /** Highlighted (the current threshold of a sweep). */
  mark?: boolean;
}

const W = 380;
const H = 150;
const PAD = { left: 34, right: 8, top: 10, bottom: 30 };

function frame(title: string, points: ChartPoint[], unit: string): { root: SVGElement; x: (i: number) => number; y: (v: number) => number; step: number } {
  const max = Math.max(1, ...points.map((p) => p.value));
  const root = svg('svg', {
    viewBox: `0 0 ${W} ${H}`,
    class: 'chart',
    role: 'img',
    'aria-label': `${title}: ${points.map((p) => `${p.label} ${p.value}${unit}`).join(', ')}`,
  });
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const step = innerW / Math.max(1, points.length);
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  root.appendChild(svg('line', { x1: PAD.left, y1: PAD.top + innerH, x2: W - PAD.right, y2: PAD.top + innerH, stroke: '#3b5266' }));
  root.appendChild(svg('text', { x: 4, y: PAD.top + 8 }, `${max}${unit}`));
  root.appendChild(svg('text', { x: 4, y: PAD.top + innerH }, `0`));
  // Every label when they fit, else every n-th.
  const every = Math.ceil(points.length / 10);
  points.forEach((p, i) => {
    if (i % every === 0) root.appendChild(svg('text', { x: PAD.left + i * step + step / 2, y: H - 12, 'text-anchor': 'middle' }, p.label));
  });
  return { root, x: (i) => PAD.left + i * step, y, step };
}

/** Bars, one per point (back-test callbacks per day, attempts per window). */
export function barChart(title: string, points: ChartPoint[], unit = ''): HTMLElement {
  const { root, x, y, step } = frame(title, points, unit);
  points.forEach((p, i) => {
    const top = y(p.value);
    const bar = svg('rect', { x: x(i) + step * 0.15, y: top, width: step * 0.7, height: Math.max(0, y(0) - top), fill: p.mark ? '#ff5fd2' : '#4fb3ff' });
    bar.appendChild(svg('title', {}, `${p.label}: ${p.value}${unit}`));
    root.appendChild(bar);
  });
  return h('figure', { style: 'margin:6px 0' }, h('figcaption', { class: 'muted' }, title), root as unknown as Node);
}

/** A line through the points (the threshold sweep), the current value marked. */
export function lineChart(title: string, points: ChartPoint[], unit = ''): HTMLElement {
  const { root, x, y, step } = frame(title, points, unit);
  const d = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${(x(i) + step / 2).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ');
  root.appendChild(svg('path', { d, fill: 'none', stroke: '#4fb3ff', 'stroke-width': 2 }));
  points.forEach((p, i) => {
    const dot = svg('circle', { cx: x(i) + step / 2, cy: y(p.value), r: p.mark ? 5 : 3, fill: p.mark ? '#ff5fd2' : '#4fb3ff' });
    dot.appendChild(svg('title', {}, `${p.label}: ${p.value}${unit}`));
    root.appendChild(dot);
  });
  return h('figure', { style: 'margin:6px 0' }, h('figcaption', { class: 'muted' }, title), root as unknown as Node);
}
