import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { getFileInfo } from 'prettier';
import { repoRoot } from '../paths.js';

// The repository's own eslint.config.mjs, loaded exactly as `npm test` loads it. The fixture sources
// are linted from memory under made-up paths: where a file sits decides which boundaries apply.
const eslint = new ESLint({ cwd: repoRoot });

interface Problem {
  ruleId: string | null;
  message: string;
}

async function lint(file: string, lines: string[]): Promise<Problem[]> {
  const results = await eslint.lintText(`${lines.join('\n')}\n`, { filePath: join(repoRoot, file) });
  return results.flatMap((result) => result.messages.map(({ ruleId, message }) => ({ ruleId, message })));
}

async function ruleIds(file: string, lines: string[]): Promise<Array<string | null>> {
  return (await lint(file, lines)).map((problem) => problem.ruleId);
}

describe('lint rules: import boundaries', () => {
  it('pass a service importing its own modules, shared packages and its use cases from transport', async () => {
    const problems = await lint('services/geo/src/transport/fixture.ts', [
      "export { createConsumer } from '@stormhook/kafka';",
      "export type { Area } from '../domain/area.js';",
      "export { importAreas } from '../usecases/import-areas.js';",
      "export const contracts = await import('@stormhook/proto');",
    ]);
    assert.deepEqual(problems, []);
  });

  it('report a service importing another service by package name, in every import form', async () => {
    const problems = await lint('services/geo/src/domain/fixture.ts', [
      "import { ROUTES } from '@stormhook/gateway';",
      "import type { Crop } from '@stormhook/query/dist/geometry/crop.js';",
      "export { FORECAST_THRESHOLDS } from '@stormhook/alarm-matcher';",
      "export * from '@stormhook/notifier';",
      "export const ingest = await import('@stormhook/ingest');",
      "export type Identity = typeof import('@stormhook/identity');",
      'export const routes: typeof ROUTES = ROUTES;',
      'export type { Crop };',
    ]);
    assert.deepEqual(
      problems.map((problem) => problem.ruleId),
      Array(6).fill('stormhook/no-cross-service-imports'),
    );
    assert.match(problems[0]?.message ?? '', /^services\/geo may not import '@stormhook\/gateway' \(services\/gateway\): services talk only over/);
  });

  it('report a service reaching into another service by a relative path', async () => {
    assert.deepEqual(await ruleIds('services/geo/src/domain/fixture.ts', ["export { cropToCircle } from '../../../query/src/geometry/crop.js';"]), [
      'stormhook/no-cross-service-imports',
    ]);
  });

  it('let a service import itself by its package name and the system tests import any service', async () => {
    assert.deepEqual(await ruleIds('services/geo/src/domain/fixture.ts', ["export { GEO } from '@stormhook/geo';"]), []);
    assert.deepEqual(
      await ruleIds('test/src/alarms/fixture.ts', ["export { ROUTES } from '@stormhook/gateway';", "export * from '../../../services/query/src/index.js';"]),
      [],
    );
  });

  it('report a shared package importing a service, by package name or by relative path', async () => {
    assert.deepEqual(await ruleIds('packages/kafka/src/fixture.ts', ["export { ROUTES } from '@stormhook/gateway';"]), [
      'stormhook/no-package-imports-service',
    ]);
    assert.deepEqual(await ruleIds('tools/devstack/src/stack/fixture.ts', ["export { ROUTES } from '../../../../services/gateway/src/routes/index.js';"]), [
      'stormhook/no-package-imports-service',
    ]);
  });

  it('read CommonJS require calls too', async () => {
    assert.deepEqual(await ruleIds('tools/devstack/mocha/fixture.cjs', ["module.exports = require('../../../services/gateway/dist/index.js');"]), [
      'stormhook/no-package-imports-service',
    ]);
  });

  it('report transport importing persistence, values and types, from any depth of src/transport', async () => {
    assert.deepEqual(
      await ruleIds('services/query/src/transport/fixture.ts', ["export type { ForecastRepository } from '../persistence/forecast-repository.js';"]),
      ['stormhook/no-transport-to-persistence'],
    );
    assert.deepEqual(await ruleIds('services/identity/src/transport/grpc/fixture.ts', ["export { COLLECTIONS } from '../../persistence/collections.js';"]), [
      'stormhook/no-transport-to-persistence',
    ]);
  });

  it('let use cases use persistence, and a transport spec arrange the store it fakes', async () => {
    assert.deepEqual(
      await ruleIds('services/query/src/usecases/fixture.ts', ["export type { ForecastRepository } from '../persistence/forecast-repository.js';"]),
      [],
    );
    assert.deepEqual(
      await ruleIds('services/query/src/transport/fixture.spec.ts', ["export type { ForecastRepository } from '../persistence/forecast-repository.js';"]),
      [],
    );
  });
});

describe('lint rules: layers inside a service', () => {
  it('report the domain importing a layer around it, or the wiring', async () => {
    const problems = await lint('services/notifier/src/domain/fixture.ts', [
      "export type { UrlGuard } from '../security/url-guard.js';",
      "export { toGrpcError } from '../transport/errors.js';",
      "export type { EndpointRepository } from '../persistence/mongo-endpoint-repository.js';",
      "export type { RecoveryCandidate } from '../ports/delivery-store.js';",
      "export { loadConfig } from '../config.js';",
    ]);
    assert.deepEqual(
      problems.map((problem) => problem.ruleId),
      [
        ...Array(5).fill('stormhook/no-domain-to-outer-layers'),
        // The config is below no one's reach but the wiring's, so the domain reading it breaks both rules.
        'stormhook/config-only-in-composition',
      ],
    );
    assert.match(problems[0]?.message ?? '', /^the domain may not import '\.\.\/security\/url-guard\.js'/);
  });

  it('let the domain import itself, from any depth, and shared packages', async () => {
    assert.deepEqual(
      await ruleIds('services/ingest/src/domain/geo/fixture.ts', [
        "export type { Problems } from '../problems.js';",
        "export { ok } from '@stormhook/errors';",
        "export { fail } from '../../domain/notifier-error.js';",
      ]),
      [],
    );
  });

  it('report an adapter or persistence importing the layers that call it', async () => {
    assert.deepEqual(await ruleIds('services/query/src/persistence/fixture.ts', ["export { encodeEntries } from '../read-models/entry.js';"]), [
      'stormhook/no-adapter-to-callers',
    ]);
    assert.deepEqual(
      await ruleIds('services/alarm-matcher/src/adapters/fixture.ts', ["export type { Backtest } from '../usecases/backtest/history-backtest.js';"]),
      ['stormhook/no-adapter-to-callers'],
    );
  });

  it('let adapters use ports, the domain and a wire mapping they share with transport', async () => {
    assert.deepEqual(
      await ruleIds('services/alarm-matcher/src/adapters/fixture.ts', [
        "export type { RegistrationEvents } from '../ports/registration-events.js';",
        "export type { Registration } from '../domain/registration.js';",
        "export { registrationToProto } from '../transport/registration-proto.js';",
      ]),
      [],
    );
  });

  it("report a service's config read below the root of src/, but not by the wiring, a harness or a spec", async () => {
    assert.deepEqual(await ruleIds('services/notifier/src/messaging/fixture.ts', ["export type { Config } from '../config.js';"]), [
      'stormhook/config-only-in-composition',
    ]);
    assert.deepEqual(await ruleIds('services/notifier/src/compose.ts', ["export type { Config } from './config.js';"]), []);
    assert.deepEqual(await ruleIds('services/notifier/src/test-support/fixture.ts', ["export { loadConfig } from '../config.js';"]), []);
    assert.deepEqual(await ruleIds('services/notifier/src/messaging/fixture.spec.ts', ["export { loadConfig } from '../config.js';"]), []);
    assert.deepEqual(await ruleIds('services/ingest/src/open-meteo/fixture.ts', ["export { loadOpenMeteoConfig } from './config.js';"]), []);
  });
});

describe('lint and format: what is left alone', () => {
  const ignored = [
    'packages/proto/src/generated/stormhook.alarm.v1.ts',
    'services/query/dist/index.js',
    'node_modules/mocha/index.js',
    '.stack/data/x.js',
    '.tools/pnpm/x.cjs',
  ];
  const checked = ['services/query/src/service.ts', 'scripts/bootstrap.mjs', 'tools/devstack/mocha/summary-reporter.cjs', 'eslint.config.mjs'];

  it('ESLint skips generated code, build output, installed modules and local state, and checks the sources', () => {
    return Promise.all([
      ...ignored.map(async (file) => assert.equal(await eslint.isPathIgnored(join(repoRoot, file)), true, file)),
      ...checked.map(async (file) => assert.equal(await eslint.isPathIgnored(join(repoRoot, file)), false, file)),
    ]);
  });

  it('prettier formats the same sources and nothing else (not JSON, YAML, Markdown or Helm templates)', async () => {
    const ignorePath = join(repoRoot, '.prettierignore');
    const isIgnored = async (file: string) => (await getFileInfo(join(repoRoot, file), { ignorePath })).ignored;
    for (const file of [...ignored, 'package.json', 'README.md', 'deploy/helm/stormhook/values.yaml', 'deploy/helm/stormhook/templates/gateway.yaml'])
      assert.equal(await isIgnored(file), true, file);
    for (const file of checked) assert.equal(await isIgnored(file), false, file);
  });
});
