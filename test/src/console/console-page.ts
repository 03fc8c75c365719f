import { readFileSync } from 'node:fs';
import type { ChromiumPage } from '@stormhook/testing';

/** Pixels of a screenshot by what the map draws there (the colours of web/console/src/map/map-view.ts, blended). */
export interface PixelCounts {
  total: number;
  /** Storm cells: orange to red. */
  storm: number;
  /** Rain: the blues above the dark background. */
  rain: number;
  /** Lightning: yellow. */
  lightning: number;
  /** The account's alarms: green. */
  alarm: number;
  /** Predicted paths: magenta. */
  path: number;
}

/**
 * Counts a PNG's pixels by colour class in the page itself (the browser decodes the PNG: the tests
 * need no image library). Only the box (CSS pixels of the viewport) is counted: the map's area.
 */
export async function countPixels(page: ChromiumPage, pngFile: string, box: { x: number; y: number; width: number; height: number }): Promise<PixelCounts> {
  const base64 = readFileSync(pngFile).toString('base64');
  return page.evaluate<PixelCounts>(`(async () => {
    const bytes = Uint8Array.from(atob(${JSON.stringify(base64)}), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const box = ${JSON.stringify(box)};
    const canvas = new OffscreenCanvas(box.width, box.height);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(bitmap, box.x, box.y, box.width, box.height, 0, 0, box.width, box.height);
    const data = ctx.getImageData(0, 0, box.width, box.height).data;
    const counts = { total: box.width * box.height, storm: 0, rain: 0, lightning: 0, alarm: 0, path: 0 };
    for (let i = 0; i < data.length; i += 4) {
      const r = data[i], g = data[i + 1], b = data[i + 2];
      if (r > 170 && g > 170 && b < 140) counts.lightning++;
      else if (r > 170 && g < 150 && b < 110) counts.storm++;
      else if (r > 170 && b > 140 && g < 140) counts.path++;
      else if (g > 120 && r < 120 && b < 170 && g > b) counts.alarm++;
      else if (b > 150 && r < 120 && b > g) counts.rain++;
    }
    return counts;
  })()`);
}

/** The map element's box in the viewport, CSS pixels. */
export function mapBox(page: ChromiumPage): Promise<{ x: number; y: number; width: number; height: number }> {
  return page.evaluate(
    `(() => { const r = document.getElementById('map').getBoundingClientRect(); return { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) }; })()`,
  );
}

/** Where a place is drawn, viewport CSS pixels (the running console's map projects it). */
export function pixelOf(page: ChromiumPage, lng: number, lat: number): Promise<{ x: number; y: number }> {
  return page.evaluate(`(() => {
    const map = window.stormhookConsole.map.map;
    const p = map.project([${lng}, ${lat}]);
    const r = map.getContainer().getBoundingClientRect();
    return { x: Math.round(r.x + p.x), y: Math.round(r.y + p.y) };
  })()`);
}

/** Sets an input's value as typing would (the input event fires), by CSS selector. */
export function type(page: ChromiumPage, selector: string, value: string): Promise<void> {
  return page.evaluate(`(() => {
    const input = document.querySelector(${JSON.stringify(selector)});
    if (!input) throw new Error('no element ' + ${JSON.stringify(selector)});
    input.focus();
    input.value = ${JSON.stringify(value)};
    input.dispatchEvent(new Event('input', { bubbles: true }));
  })()`);
}

/** Clicks the first button whose text is `text` (optionally inside `within`). */
export function clickButton(page: ChromiumPage, text: string, within = 'body'): Promise<void> {
  return page.evaluate(`(() => {
    const button = [...document.querySelectorAll(${JSON.stringify(within)} + ' button')].find((b) => b.textContent.trim() === ${JSON.stringify(text)} && b.offsetParent !== null);
    if (!button) throw new Error('no visible button ' + ${JSON.stringify(text)});
    button.click();
  })()`);
}

/** The status line's figures (storms, rain areas, strikes, stream state). */
export function statusOf(page: ChromiumPage): Promise<{ storms: number; rain: number; strikes: number; stream: string } | null> {
  return page.evaluate(`(() => {
    const s = document.querySelector('.status');
    return s && s.dataset.storms !== undefined ? { storms: Number(s.dataset.storms), rain: Number(s.dataset.rain), strikes: Number(s.dataset.strikes), stream: s.dataset.stream } : null;
  })()`);
}

/** Resolves when the map has drawn everything it was given (MapLibre's idle: no tiles or transitions pending). */
export function mapIdle(page: ChromiumPage): Promise<boolean> {
  return page.evaluate(`new Promise((resolve) => {
    const map = window.stormhookConsole.map.map;
    if (map.loaded() && !map.isMoving()) map.once('idle', () => resolve(true)), map.triggerRepaint();
    else map.once('idle', () => resolve(true));
    setTimeout(() => resolve(false), 10000);
  })`);
}
