import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import express, { type RequestHandler, type Router } from 'express';

/** Where the image puts the console's bundle: `console-assets/` beside the gateway's `dist/` (the Dockerfile copies it). */
export const IMAGE_CONSOLE_ASSETS = fileURLToPath(new URL('../../console-assets/', import.meta.url));

/**
 * The console's built files (web/console, bundled by its build.mjs): the image's copy, else the
 * workspace package's dist/public in a checkout. The package is a development dependency of the
 * gateway, like the API reference renderer: the image carries the built files only.
 */
export function consoleFolder(imageAssets = IMAGE_CONSOLE_ASSETS): string | undefined {
  if (existsSync(join(imageAssets, 'index.html'))) return imageAssets;
  try {
    const require = createRequire(import.meta.url);
    const built = join(dirname(require.resolve('@stormhook/console/package.json')), 'dist', 'public');
    return existsSync(join(built, 'index.html')) ? built : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Scripts, styles, data and workers from this origin only: the map library runs its parser in a
 * module worker loaded from /console/, draws into canvases, and the page calls only this gateway's /v1.
 * MapLibre sets inline styles on its elements, hence style-src 'unsafe-inline'.
 */
const consoleHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader(
    'Content-Security-Policy',
    "default-src 'self'; script-src 'self'; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  );
  res.setHeader('X-Content-Type-Options', 'nosniff');
  next();
};

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Stormhook console</title></head>
<body><p>The console is not built: run <code>npm run build</code> (it bundles web/console).</p></body></html>
`;

/**
 * GET /console: the customer console, a static page calling the public /v1 API with the caller's own
 * credentials. Public like /docs: the page holds no data; the API decides what each caller sees.
 */
export function consoleRouter(folder = consoleFolder()): Router {
  const router = express.Router();
  router.use('/console', consoleHeaders);
  router.get(['/console', '/console/', '/console/index.html'], (_req, res) => {
    if (!folder) {
      res.status(503).type('html').set('Cache-Control', 'no-cache').send(NOT_BUILT);
      return;
    }
    res.type('html').set('Cache-Control', 'no-cache').sendFile(join(folder, 'index.html'));
  });
  if (folder) {
    // The bundle's names are not content-hashed: revalidated on each load rather than cached blind.
    router.use(
      '/console',
      express.static(folder, { index: false, maxAge: 0, fallthrough: true, setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache') }),
    );
  }
  return router;
}
