import assert from 'node:assert/strict';
import { checkLinkOrigins, checkNoDevFallbacks, checkNoFeedSimulator } from './product-settings-check.js';

const identity = (env: string) =>
  `---\nkind: Deployment\nmetadata:\n  name: stormhook-identity\n  labels: { app.kubernetes.io/component: identity }\nspec:\n  template:\n    spec:\n      containers:\n        - name: identity\n          env:\n            - { name: LOG_LEVEL, value: info }\n${env}`;
const origins = (value: string) => identity(`            - { name: STORMHOOK_ALLOWED_LINK_ORIGINS, value: "${value}" }\n`);

describe('issue 14 settings checks', () => {
  it('passes identity with bare http(s) origins, fails it without any or with a path', () => {
    assert.equal(checkLinkOrigins(origins('https://app.example.com,http://localhost:3000'), 'test').ok, true);
    const none = checkLinkOrigins(identity(''), 'test');
    assert.equal(none.ok, false);
    assert.match(none.detail, /STORMHOOK_ALLOWED_LINK_ORIGINS is not set/);
    assert.match(checkLinkOrigins(origins('https://app.example.com/reset'), 'test').detail, /not an http\(s\) origin: https:\/\/app.example.com\/reset/);
    assert.match(checkLinkOrigins(origins('ftp://app.example.com'), 'test').detail, /not an http\(s\) origin/);
    assert.match(checkLinkOrigins('kind: Service\nmetadata: { name: x }\n', 'test').detail, /no identity Deployment/);
  });

  it('finds the feed simulator in a Deployment, a CronJob or a shell line, and passes the adapter', () => {
    const adapter = `---\nkind: CronJob\nmetadata: { name: om }\nspec:\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          containers:\n            - { name: open-meteo, args: [dist/open-meteo/cli.js] }\n`;
    assert.equal(checkNoFeedSimulator(identity('') + adapter, 'test').ok, true);
    const deployment = `---\nkind: Deployment\nmetadata: { name: sim }\nspec:\n  template:\n    spec:\n      containers:\n        - { name: feed, args: [dist/sim/cli.js, --rate, "60"] }\n`;
    assert.match(checkNoFeedSimulator(deployment, 'test').detail, /runs it: Deployment sim \(feed\)/);
    const cron = adapter.replace('dist/open-meteo/cli.js', 'dist/sim/cli.js');
    assert.match(checkNoFeedSimulator(cron, 'test').detail, /runs it: CronJob om \(open-meteo\)/);
    const shell = `---\nkind: Pod\nmetadata: { name: p }\nspec:\n  initContainers:\n    - { name: init, command: [sh, -c, "node dist/sim/cli.js --backfill 2h"] }\n`;
    assert.match(checkNoFeedSimulator(shell, 'test').detail, /runs it: Pod p \(init\)/);
  });

  it('fails a render that sets the development key switch, wherever it is, and passes one that never names it', () => {
    assert.equal(checkNoDevFallbacks(identity(''), 'test').ok, true);
    const set = checkNoDevFallbacks(identity('            - { name: STORMHOOK_DEV_FALLBACKS, value: "1" }\n'), 'test');
    assert.equal(set.ok, false);
    assert.match(set.detail, /line 13: - \{ name: STORMHOOK_DEV_FALLBACKS/);
    const configMap = `---\nkind: ConfigMap\nmetadata: { name: env }\ndata:\n  STORMHOOK_DEV_FALLBACKS: "true"\n`;
    assert.equal(checkNoDevFallbacks(configMap, 'test').ok, false);
  });
});
