// The workspace's import boundaries as ESLint rules (the `stormhook` plugin of eslint.config.mjs).
// They held by convention before they were checked: services talk only over Kafka and gRPC
// contracts, shared packages never depend on a service, and a service's transport (Kafka consumers,
// gRPC handlers) reaches the database only through its use cases. Inside a service the arrows run
// one way: the domain imports none of the layers around it, adapters and persistence none of the
// layers that call them, and only the files that put the service together read its config.
//
// Each import is resolved to the place in the workspace it points at, so a relative path that climbs
// into another service is caught as surely as a package name (`@stormhook/query`).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** @typedef {{ kind: 'service' | 'package' | 'other', unit: string, inner: string | undefined }} Place */

/** @type {Map<string, Map<string, string>>} service package name → `services/<dir>`, per workspace root */
const servicePackagesByRoot = new Map();

/** The package names of the services, read from their manifests so a new service is covered at once. */
function servicePackages(root) {
  let names = servicePackagesByRoot.get(root);
  if (names) return names;
  names = new Map();
  const services = join(root, 'services');
  for (const dir of existsSync(services) ? readdirSync(services) : []) {
    const manifest = join(services, dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const { name } = JSON.parse(readFileSync(manifest, 'utf8'));
    if (typeof name === 'string') names.set(name, `services/${dir}`);
  }
  servicePackagesByRoot.set(root, names);
  return names;
}

/**
 * Where an absolute path sits: its unit (`services/geo`, `packages/kafka`, `tools/devstack`, `test`) and
 * the path inside it. The dev and CI tooling under tools/ is held to the shared packages' rule: it starts
 * services as processes and never imports one.
 */
function placeOfPath(root, path) {
  const parts = relative(root, path).split(sep);
  if (parts[0] === '..' || parts[0] === '') return undefined;
  const [top, name, ...rest] = parts;
  if ((top === 'services' || top === 'packages' || top === 'tools') && name !== undefined && rest.length > 0) {
    return { kind: top === 'services' ? 'service' : 'package', unit: `${top}/${name}`, inner: rest.join('/') };
  }
  return { kind: 'other', unit: top, inner: parts.slice(1).join('/') };
}

/** Where an import specifier points, or undefined for anything outside the workspace (node:, npm packages). */
function placeOfImport(root, importer, specifier) {
  if (specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..') {
    return placeOfPath(root, resolve(dirname(importer), specifier));
  }
  const packageName = specifier.split('/').slice(0, 2).join('/');
  const service = servicePackages(root).get(packageName);
  // A package name says which unit, not which file inside it.
  return service === undefined ? undefined : { kind: 'service', unit: service, inner: undefined };
}

/** The string literal a node imports from, for every form an import takes in TypeScript and JavaScript. */
function importedLiteral(node) {
  switch (node.type) {
    case 'ImportDeclaration':
    case 'ExportAllDeclaration':
    case 'ExportNamedDeclaration':
    case 'ImportExpression':
      return node.source ?? undefined;
    case 'TSImportEqualsDeclaration':
      return node.moduleReference.type === 'TSExternalModuleReference' ? node.moduleReference.expression : undefined;
    case 'TSImportType':
      // `import('x').T` in a type position; older parsers call the literal `argument.literal`.
      return node.source ?? node.argument?.literal ?? undefined;
    case 'CallExpression':
      return node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments.length === 1 ? node.arguments[0] : undefined;
    default:
      return undefined;
  }
}

const importNodeTypes = [
  'ImportDeclaration',
  'ExportAllDeclaration',
  'ExportNamedDeclaration',
  'ImportExpression',
  'TSImportEqualsDeclaration',
  'TSImportType',
  'CallExpression',
];

const optionsSchema = [
  {
    type: 'object',
    properties: { root: { type: 'string', description: 'absolute path of the workspace root' } },
    additionalProperties: false,
  },
];

/**
 * Builds a rule that calls `check(from, to)` for each import of the file being linted that points
 * inside the workspace; `check` returns the message id to report, or undefined.
 */
function boundaryRule(description, messages, check) {
  return {
    meta: { type: 'problem', docs: { description }, schema: optionsSchema, messages },
    create(context) {
      // The workspace root comes from eslint.config.mjs; ESLint's working directory is the fallback.
      const root = context.options[0]?.root ?? context.cwd;
      const from = placeOfPath(root, context.filename);
      if (from === undefined) return {};
      const visit = (node) => {
        const literal = importedLiteral(node);
        if (literal?.type !== 'Literal' || typeof literal.value !== 'string') return;
        const to = placeOfImport(root, context.filename, literal.value);
        if (to === undefined) return;
        const messageId = check(from, to);
        if (messageId !== undefined) context.report({ node: literal, messageId, data: { from: from.unit, to: to.unit, specifier: literal.value } });
      };
      return Object.fromEntries(importNodeTypes.map((type) => [type, visit]));
    },
  };
}

const noCrossServiceImports = boundaryRule(
  'A service does not import another service: services talk only over the Kafka and gRPC contracts in proto/.',
  { crossService: "{{from}} may not import '{{specifier}}' ({{to}}): services talk only over the Kafka and gRPC contracts in proto/" },
  (from, to) => (from.kind === 'service' && to.kind === 'service' && to.unit !== from.unit ? 'crossService' : undefined),
);

const noPackageImportsService = boundaryRule(
  'A shared package does not import a service: what two services share belongs in a package.',
  { packageImportsService: "{{from}} may not import '{{specifier}}' ({{to}}): a shared package never depends on a service" },
  (from, to) => (from.kind === 'package' && to.kind === 'service' ? 'packageImportsService' : undefined),
);

const underFolder = (inner, folder) => inner !== undefined && inner.startsWith(`src/${folder}/`);

const noTransportToPersistence = boundaryRule(
  "A service's transport (src/transport) does not reach its persistence (src/persistence) directly, only through use cases and ports.",
  { transportToPersistence: "transport may not import persistence ('{{specifier}}'): go through a use case or a port that service.ts wires" },
  (from, to) =>
    from.kind === 'service' && to.unit === from.unit && underFolder(from.inner, 'transport') && underFolder(to.inner, 'persistence')
      ? 'transportToPersistence'
      : undefined,
);

/**
 * The folder (`transport`, `domain`...) or root module (`config`, without its extension: an import
 * names the compiled `.js`, a file is the `.ts`) of `src/` that a place inside a service is in.
 */
const layerOf = (inner) =>
  inner !== undefined && inner.startsWith('src/')
    ? inner
        .slice('src/'.length)
        .split('/')[0]
        .replace(/\.[cm]?[jt]s$/, '')
    : undefined;

/** Modules at the root of a service's src/ that put the service together: only they read its config. */
const COMPOSITION = new Set(['config', 'service', 'compose', 'main', 'index', 'settings']);

/** What a service's domain (src/domain) may not import: the layers and wiring around it. */
const OUTSIDE_DOMAIN = new Set(['ports', 'transport', 'usecases', 'persistence', 'adapters', 'security', 'messaging', 'delivery', 'http', ...COMPOSITION]);

const noDomainToOuterLayers = boundaryRule(
  "A service's domain (src/domain) imports none of the layers around it (ports, transport, use cases, persistence, adapters, security, its wiring): they depend on it, not it on them.",
  {
    domainToOuter:
      "the domain may not import '{{specifier}}': it is the layer the others depend on; declare what it needs (an interface, a type) in the domain and let the outer layer implement it",
  },
  (from, to) =>
    from.kind === 'service' && to.unit === from.unit && layerOf(from.inner) === 'domain' && OUTSIDE_DOMAIN.has(layerOf(to.inner)) ? 'domainToOuter' : undefined,
);

/**
 * What a service's outbound adapters (src/adapters, src/persistence) may not import: the layers that
 * call them through ports. (An adapter may share a wire mapping with transport: both speak proto.)
 */
const ABOVE_ADAPTERS = new Set(['usecases', 'read-models']);

const noAdapterToCallers = boundaryRule(
  "A service's adapters (src/adapters, src/persistence) do not import the layers that use them (use cases, read models): they implement ports, and what they store or send is handed to them.",
  {
    adapterToCaller:
      "an adapter may not import '{{specifier}}', a layer that uses it: take what it needs through a port, a type of the domain or a codec passed in its constructor",
  },
  (from, to) =>
    from.kind === 'service' && to.unit === from.unit && ['adapters', 'persistence'].includes(layerOf(from.inner)) && ABOVE_ADAPTERS.has(layerOf(to.inner))
      ? 'adapterToCaller'
      : undefined,
);

const configOnlyInComposition = boundaryRule(
  "A service's config (src/config.ts) is read where the service is put together (service.ts, compose.ts, main.ts, a command at the src root); the code below gets the settings it needs passed in.",
  {
    configBelowComposition:
      "only the files at the root of src/ may import the service's config ('{{specifier}}'): pass the settings this code needs in, as a narrow interface of its own",
  },
  (from, to) =>
    from.kind === 'service' &&
    to.unit === from.unit &&
    layerOf(to.inner) === 'config' &&
    !to.inner.slice('src/'.length).includes('/') &&
    from.inner?.startsWith('src/') &&
    from.inner.slice('src/'.length).includes('/')
      ? 'configBelowComposition'
      : undefined,
);

/** The ESLint plugin; eslint.config.mjs registers it under the name `stormhook`. */
export const importBoundaries = {
  meta: { name: 'stormhook-import-boundaries' },
  rules: {
    'no-cross-service-imports': noCrossServiceImports,
    'no-package-imports-service': noPackageImportsService,
    'no-transport-to-persistence': noTransportToPersistence,
    'no-domain-to-outer-layers': noDomainToOuterLayers,
    'no-adapter-to-callers': noAdapterToCallers,
    'config-only-in-composition': configOnlyInComposition,
  },
};
