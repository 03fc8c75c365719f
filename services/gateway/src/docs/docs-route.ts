import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import express, { type RequestHandler, type Router } from 'express';

/** Where the image puts the renderer's browser bundle: `docs-assets/` beside the gateway's `dist/`. */
export const IMAGE_ASSETS = fileURLToPath(new URL('../../docs-assets/', import.meta.url));

/**
 * The renderer's prebuilt browser bundle, served by the gateway: the page needs no CDN at run time.
 * The image carries only that bundle (the Dockerfile copies it to docs-assets/): the package is a
 * development dependency, because its tree (icons, two highlight.js, TypeScript as a peer) is about
 * 113 MB of which the page serves one folder. A checkout serves it from the installed package, which
 * exports its stylesheet, not the bundle, so the folder is found from that.
 */
export function rendererFolder(imageAssets = IMAGE_ASSETS): string {
  if (existsSync(join(imageAssets, 'standalone.js'))) return imageAssets;
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@scalar/api-reference/style.css')), 'browser');
}

/**
 * The mount point is not called `api-reference`: the bundle mounts a second, empty reference of its own
 * on an element with that id (its HTML API), which stays a loading skeleton above ours and loads
 * Scalar's web fonts. The icon is inline so the page makes no request it would get a 404 for.
 */
const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Stormhook API reference</title>
  <link rel="icon" href="data:,">
</head>
<body>
  <div id="stormhook-reference"></div>
  <script src="/docs/assets/standalone.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

/**
 * Renders /v1/openapi.json (operations and the webhooks section). No default web fonts, no hosted
 * API client and no telemetry: everything the page loads comes from this gateway.
 */
const INIT = `Scalar.createApiReference('#stormhook-reference', {
  url: '/v1/openapi.json',
  withDefaultFonts: false,
  hideClientButton: true,
  // Every group open: a reader searching the page with the browser finds every operation and callback.
  defaultOpenAllTags: true,
  telemetry: false,
  hideDarkModeToggle: false,
  // The renderer's hosted services need scalar.com, which this page may not reach and we do not offer:
  // the AI chat, the MCP generator, and the toolbar that shares and deploys the document.
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  metaData: { title: 'Stormhook API reference' },
});
`;

/**
 * The content security policy of the page enforces what the page promises: scripts, data and fonts
 * from this origin only (the renderer injects its styles inline).
 */
const docsHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader(
    'Content-Security-Policy',
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
  );
  next();
};

/** GET /docs: the API reference page; its script and the renderer under /docs/. Public, like the document. */
export function docsRouter(): Router {
  const router = express.Router();
  router.use('/docs', docsHeaders);
  router.get(['/docs', '/docs/'], (_req, res) => {
    res.type('html').set('Cache-Control', 'no-cache').send(PAGE);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').set('Cache-Control', 'no-cache').send(INIT);
  });
  router.use('/docs/assets', express.static(rendererFolder(), { index: false, maxAge: '1d', fallthrough: true }));
  return router;
}
