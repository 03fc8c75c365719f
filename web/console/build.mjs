#!/usr/bin/env node
// Bundles the console (src/main.ts, MapLibre GL JS and the styles) into dist/public, the folder the
// gateway serves at /console (services/gateway/src/console/console-route.ts), and prints its size
// gzipped: everything the page loads comes from there, nothing from a CDN. `npm run build` (and so
// `npm start`, `npm test`) runs it after tsc: scripts/bootstrap.mjs.
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, 'dist', 'public');
// The bound for the whole console, gzipped.
const BUDGET_BYTES = 1.5 * 1024 * 1024;

const require = createRequire(import.meta.url);
const maplibreDist = join(dirname(require.resolve('maplibre-gl/package.json')), 'dist');

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(here, 'src', 'main.ts')],
  outfile: join(out, 'console.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022'],
  minify: true,
  legalComments: 'linked',
  logLevel: 'warning',
});
await build({
  entryPoints: [join(here, 'src', 'console.css')],
  outfile: join(out, 'console.css'),
  bundle: true,
  minify: true,
  logLevel: 'warning',
});
copyFileSync(join(here, 'src', 'index.html'), join(out, 'index.html'));
// MapLibre 6 runs its parser in a module worker loaded by URL (main.ts sets it): shipped as published.
copyFileSync(join(maplibreDist, 'maplibre-gl-worker.mjs'), join(out, 'maplibre-gl-worker.mjs'));
copyFileSync(join(maplibreDist, '..', 'LICENSE.txt'), join(out, 'maplibre-gl-LICENSE.txt'));

let raw = 0;
let gzipped = 0;
const rows = [];
for (const name of readdirSync(out).sort()) {
  const bytes = readFileSync(join(out, name));
  const packed = gzipSync(bytes, { level: 9 }).length;
  raw += statSync(join(out, name)).size;
  gzipped += packed;
  rows.push(`  ${name.padEnd(28)} ${(bytes.length / 1024).toFixed(1).padStart(8)} KiB ${(packed / 1024).toFixed(1).padStart(8)} KiB gzipped`);
}
process.stderr.write(
  `[console] bundle in web/console/dist/public:\n${rows.join('\n')}\n` +
    `[console] total ${(raw / 1024).toFixed(1)} KiB, ${(gzipped / 1024).toFixed(1)} KiB gzipped (budget ${(BUDGET_BYTES / 1024).toFixed(0)} KiB)\n`,
);
if (gzipped > BUDGET_BYTES) {
  process.stderr.write('[console] the bundle is over its budget\n');
  process.exit(1);
}
