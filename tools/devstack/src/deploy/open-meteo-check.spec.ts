import assert from 'node:assert/strict';
import { repoRoot } from '../paths.js';
import { checkOpenMeteoJob, checkOpenMeteoPolicy } from './open-meteo-check.js';

const V4 = ['0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24', '192.0.2.0/24'];
const V4_MORE = ['192.168.0.0/16', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24', '224.0.0.0/4', '240.0.0.0/4'];
const V6 = ['::/128', '::1/128', '::ffff:0:0/96', '64:ff9b::/96', '2001:db8::/32', '2002::/16', 'fc00::/7', 'fe80::/10', 'ff00::/8'];
const quoted = (list: string[]) => list.map((r) => `"${r}"`).join(', ');

const ENV: Record<string, string> = {
  KAFKA_BROKERS: 'stormhook-kafka-bootstrap.kafka.svc:9092',
  OPEN_METEO_BASE_URL: 'https://api.open-meteo.com',
  OPEN_METEO_GRID: '26,36,45,42:0.5',
  OPEN_METEO_MODEL: 'best_match',
  OPEN_METEO_FORECAST_DAYS: '7',
  OPEN_METEO_TIMEOUT_MS: '30000',
  OPEN_METEO_INTERVAL_MS: '0',
};

/** The CronJob as the chart renders it, with `args` and `env` replaceable. */
function cronJob(args = '[dist/open-meteo/cli.js]', env: Record<string, string> = ENV, image = 'registry.example.com/stormhook/ingest:0.1.0'): string {
  const entries = Object.entries(env).map(([name, value]) => `                    - { name: ${name}, value: "${value}" }`);
  return `---
kind: CronJob
metadata:
  name: stormhook-open-meteo
  labels: { app.kubernetes.io/component: open-meteo }
spec:
  jobTemplate:
    spec:
      template:
        spec:
          containers:
            - name: open-meteo
              image: "${image}"
              args: ${args}
              env:
${entries.join('\n')}
`;
}

const DNS = '    - ports: [{ protocol: UDP, port: 53 }, { protocol: TCP, port: 53 }]\n';
const KAFKA = '    - ports: [{ protocol: TCP, port: 9092 }]\n      to: [{ namespaceSelector: { matchLabels: { kubernetes.io/metadata.name: kafka } } }]\n';
const https = (v4: string[] = [...V4, ...V4_MORE], port = 443) =>
  `    - ports: [{ protocol: TCP, port: ${port} }]\n      to:\n        - ipBlock: { cidr: 0.0.0.0/0, except: [${quoted(v4)}] }\n        - ipBlock: { cidr: "::/0", except: [${quoted(V6)}] }\n`;

function policy(egress: string, head = '  policyTypes: [Ingress, Egress]\n  ingress: []\n'): string {
  return `---
kind: NetworkPolicy
metadata: { name: stormhook-open-meteo }
spec:
  podSelector: { matchLabels: { app.kubernetes.io/component: open-meteo } }
${head}  egress:
${egress}`;
}

const GOOD = cronJob() + policy(DNS + KAFKA + https());

describe('Open-Meteo job checks', () => {
  it('passes the job as the chart renders it', () => {
    const job = checkOpenMeteoJob(GOOD, 'test', repoRoot);
    assert.equal(job.ok, true, job.detail);
    const isolated = checkOpenMeteoPolicy(GOOD, 'test');
    assert.equal(isolated.ok, true, isolated.detail);
  });

  it('fails a render without the job, another command, a missing setting, a repeating interval or another image', () => {
    assert.match(checkOpenMeteoJob(policy(DNS), 'test', repoRoot).detail, /no CronJob of component open-meteo/);
    assert.match(checkOpenMeteoJob(cronJob('[dist/sim/cli.js]'), 'test', repoRoot).detail, /runs "dist\/sim\/cli.js", not dist\/open-meteo\/cli.js/);
    const { OPEN_METEO_GRID: _grid, ...withoutGrid } = ENV;
    assert.match(checkOpenMeteoJob(cronJob(undefined, withoutGrid), 'test', repoRoot).detail, /OPEN_METEO_GRID is not set/);
    assert.match(
      checkOpenMeteoJob(cronJob(undefined, { ...ENV, OPEN_METEO_INTERVAL_MS: '10800000' }), 'test', repoRoot).detail,
      /OPEN_METEO_INTERVAL_MS is not "0"/,
    );
    assert.match(checkOpenMeteoJob(cronJob(undefined, ENV, 'stormhook/gateway:1'), 'test', repoRoot).detail, /is not the ingest image/);
  });

  it('fails the job without a NetworkPolicy (the chart before this check)', () => {
    assert.match(checkOpenMeteoPolicy(cronJob(), 'test').detail, /no NetworkPolicy selects the open-meteo pods/);
  });

  it('fails a policy that lacks DNS, Kafka or HTTPS, or does not isolate ingress', () => {
    const detail = (yaml: string) => checkOpenMeteoPolicy(cronJob() + yaml, 'test').detail;
    assert.match(detail(policy(KAFKA + https())), /no DNS egress/);
    assert.match(detail(policy(DNS + https())), /no egress to Kafka's port 9092/);
    assert.match(detail(policy(DNS + KAFKA)), /no egress on port 443/);
    assert.match(detail(policy(DNS + KAFKA + https(), '  policyTypes: [Egress]\n')), /policyTypes lacks Ingress/);
    assert.match(detail(policy(DNS + KAFKA + https(), '  policyTypes: [Ingress, Egress]\n  ingress: [{}]\n')), /admits ingress/);
  });

  it('fails egress to the cluster, the database, any port, or the internet with private ranges open', () => {
    const detail = (egress: string) => checkOpenMeteoPolicy(cronJob() + policy(DNS + KAFKA + https() + egress), 'test').detail;
    assert.match(detail('    - ports: [{ protocol: TCP, port: 27017 }]\n'), /egress on ports 27017, which the job does not need/);
    assert.match(detail('    - to: [{ podSelector: {} }]\n'), /an egress rule without ports/);
    assert.match(
      detail('    - ports: [{ protocol: TCP, port: 9092 }]\n      to: [{ podSelector: { matchLabels: { app.kubernetes.io/component: geo } } }]\n'),
      /the Kafka rule reaches .*geo.*, not only the brokers/,
    );
    assert.match(detail('    - ports: [{ protocol: TCP, port: 443 }]\n      to: [{ podSelector: {} }]\n'), /the HTTPS rule reaches more than public ipBlocks/);
    const open = checkOpenMeteoPolicy(cronJob() + policy(DNS + KAFKA + https(V4)), 'test');
    assert.equal(open.ok, false);
    assert.match(open.detail, /HTTPS egress does not exclude 192\.168\.0\.0\/16/);
    assert.match(open.detail, /HTTPS egress does not exclude 224\.0\.0\.0\/4/);
  });
});
