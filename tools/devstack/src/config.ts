import { bool, defineEnv, int, list, str, port } from '@stormhook/config';

/**
 * The ranges the local stack exempts from the notifier's SSRF filter unless NOTIFIER_SSRF_ALLOW_CIDRS
 * says otherwise: loopback, so a newcomer's receiver on localhost gets its callbacks. Only here, in
 * `npm start`: the notifier itself and the Helm chart exempt nothing by default.
 */
export const LOCAL_SSRF_ALLOW_CIDRS = ['127.0.0.1/32', '::1/128'];

const loadEnv = defineEnv({
  STORMHOOK_HOST: str({ default: '127.0.0.1', description: 'address every embedded component binds to' }),
  STORMHOOK_GATEWAY_PORT: port({ default: 8080 }),
  STORMHOOK_GRPC_BASE_PORT: port({ default: 50051 }),
  STORMHOOK_KAFKA_PORT: port({ default: 9092 }),
  STORMHOOK_KAFKA_CONTROLLER_PORT: port({ default: 9093 }),
  STORMHOOK_KAFKA_HEAP_MB: int({ default: 768, min: 256, max: 8192 }),
  STORMHOOK_FERRETDB_PORT: port({ default: 27017 }),
  STORMHOOK_FERRETDB_DURABLE: bool({
    default: false,
    description: 'SQLite synchronous=FULL: survives a power loss, at half the write rate of the default synchronous=NORMAL',
  }),
  STORMHOOK_FAULTS_KAFKA_PORT: port({ default: 19092, description: "the fault tests' private broker" }),
  STORMHOOK_FAULTS_KAFKA_CONTROLLER_PORT: port({ default: 19093 }),
  STORMHOOK_FAULTS_FERRETDB_PORT: port({ default: 27117, description: "the fault tests' private database" }),
  STORMHOOK_START_TIMEOUT_S: int({ default: 180, min: 10, max: 3600 }),
  STORMHOOK_INSTANCE: str({ optional: true, description: 'names a second stack from the same checkout (own logs, pid files and lock)' }),
  STORMHOOK_PRIVATE_INFRA: str({
    optional: true,
    description: 'folder under .stack/data: start a private Kafka and FerretDB there (wiped first) on the configured ports instead of reusing the shared ones',
  }),
  STORMHOOK_TOPIC_PREFIX: str({ optional: true, description: 'prefix of every topic this stack creates and uses' }),
  STORMHOOK_FEED_SIM: bool({
    default: true,
    description: 'run the feed simulator beside the stack, so synthetic weather flows at once (0 turns it off, e.g. to publish your own feed)',
  }),
  STORMHOOK_FEED_SIM_ARGS: str({ optional: true, description: 'extra arguments of the simulator, e.g. "--seed 7 --storms 8" (they win over the defaults)' }),
  STORMHOOK_OPEN_METEO: bool({
    default: false,
    description:
      'also run the Open-Meteo forecast adapter (OPEN_METEO_BASE_URL, OPEN_METEO_GRID, OPEN_METEO_INTERVAL_MS, ...): real forecasts where the internet is reachable',
  }),
  STORMHOOK_ALLOWED_LINK_ORIGINS: list({
    optional: true,
    description:
      "origins identity may put in activation, invitation and reset links; default: http://localhost:3000, http://127.0.0.1:3000 and the gateway's own address",
  }),
  NOTIFIER_SSRF_ALLOW_CIDRS: list({
    optional: true,
    description: `private ranges the local notifier may call back; default: ${LOCAL_SSRF_ALLOW_CIDRS.join(',')} (a receiver on this machine); none: the full SSRF filter`,
  }),
  KAFKA_BROKERS: list({ optional: true, description: 'an external Kafka cluster instead of the embedded broker' }),
  STORMHOOK_KAFKA_CREDENTIALS: str({
    optional: true,
    description: 'with KAFKA_BROKERS: a JSON file {"passwords": {principal: password}} of the admin and every principal of the access table',
  }),
  MONGO_URL: str({ optional: true, secret: true, description: 'an external MongoDB instead of the embedded FerretDB' }),
});

export interface DevstackConfig {
  host: string;
  gatewayPort: number;
  grpcBasePort: number;
  kafkaPort: number;
  kafkaControllerPort: number;
  kafkaHeapMb: number;
  ferretPort: number;
  /** SQLite's fsync policy under FerretDB; see {@link FerretOptions.synchronous}. */
  ferretSynchronous: 'normal' | 'full';
  /** Ports of the private Kafka and FerretDB that `npm run faults` stops and restarts. */
  faults: { kafkaPort: number; kafkaControllerPort: number; ferretPort: number };
  startTimeoutMs: number;
  externalKafka: string[] | undefined;
  /** The credentials file of the external cluster's principals (required with externalKafka). */
  externalKafkaCredentials: string | undefined;
  externalMongo: string | undefined;
  /** The simulator's arguments: the stack's defaults, then STORMHOOK_FEED_SIM_ARGS. Undefined when it is off. */
  feedSimulator: { args: string[] } | undefined;
  instance: string | undefined;
  /** `npm start` only: a private, fresh broker and database under .stack/data/<folder> (the stop tests). */
  privateInfraDir: string | undefined;
  topicPrefix: string | undefined;
  /** Run the Open-Meteo adapter beside the stack (its own OPEN_METEO_* variables configure it). */
  openMeteo: boolean;
  /** Origins identity accepts for the links it e-mails; a local stack allows its own by default. */
  linkOrigins: string[];
  /** NOTIFIER_SSRF_ALLOW_CIDRS of the local notifier; empty: every private address is refused. */
  ssrfAllowCidrs: string[];
}

/**
 * What a first start simulates: a thunderstorm kept over Ankara whatever the season, so a point alarm
 * there fires within minutes, and cells heading for Polatlı every 90 seconds, so an alarm there with a
 * warning stage hears one coming. Later arguments of the same option win (node:util parseArgs).
 */
export const FEED_SIM_DEFAULT_ARGS = ['--demo-storm', 'ankara', '--demo-approach', 'polatli'];

/** What /v1/health says while the simulator runs (STORMHOOK_DATA_SOURCE_NOTICE of the gateway). */
export const FEED_SIM_NOTICE =
  'SYNTHETIC weather: the feed simulator of the local stack publishes made-up precipitation (event ids prc_sim<seed>-...), ' +
  'thunderstorms (tst_sim<seed>-...), lightning (strike ids sim<seed>-...) ' +
  'and forecasts (model stormhook-sim), with a demo thunderstorm over Ankara and demo cells heading for Polatlı; STORMHOOK_FEED_SIM=0 turns it off';

/**
 * The origins a first start allows for activation and reset links: a local front end on port 3000 and
 * the gateway itself, so the password reset request and phone activation work without any setting.
 */
export function localLinkOrigins(host: string, gatewayPort: number): string[] {
  return [...new Set(['http://localhost:3000', 'http://127.0.0.1:3000', `http://${host}:${gatewayPort}`, `http://localhost:${gatewayPort}`])];
}

/**
 * An empty variable counts as unset (it takes the default), so turning the exemption off takes a word:
 * `none`. Anything else goes to the notifier as written, which validates each entry at start.
 */
function ssrfAllowCidrs(setting: string[] | undefined): string[] {
  if (setting === undefined) return LOCAL_SSRF_ALLOW_CIDRS;
  return setting.length === 1 && setting[0]?.toLowerCase() === 'none' ? [] : setting;
}

export function loadDevstackConfig(env: NodeJS.ProcessEnv = process.env): DevstackConfig {
  const c = loadEnv(env);
  if (c.STORMHOOK_PRIVATE_INFRA !== undefined && !/^[a-z0-9][a-z0-9-]*$/.test(c.STORMHOOK_PRIVATE_INFRA)) {
    throw new Error(`STORMHOOK_PRIVATE_INFRA must be a folder name of lower-case letters, digits and dashes, got "${c.STORMHOOK_PRIVATE_INFRA}"`);
  }
  return {
    host: c.STORMHOOK_HOST,
    gatewayPort: c.STORMHOOK_GATEWAY_PORT,
    grpcBasePort: c.STORMHOOK_GRPC_BASE_PORT,
    kafkaPort: c.STORMHOOK_KAFKA_PORT,
    kafkaControllerPort: c.STORMHOOK_KAFKA_CONTROLLER_PORT,
    kafkaHeapMb: c.STORMHOOK_KAFKA_HEAP_MB,
    ferretPort: c.STORMHOOK_FERRETDB_PORT,
    ferretSynchronous: c.STORMHOOK_FERRETDB_DURABLE ? 'full' : 'normal',
    faults: {
      kafkaPort: c.STORMHOOK_FAULTS_KAFKA_PORT,
      kafkaControllerPort: c.STORMHOOK_FAULTS_KAFKA_CONTROLLER_PORT,
      ferretPort: c.STORMHOOK_FAULTS_FERRETDB_PORT,
    },
    startTimeoutMs: c.STORMHOOK_START_TIMEOUT_S * 1000,
    externalKafka: c.KAFKA_BROKERS,
    externalKafkaCredentials: c.STORMHOOK_KAFKA_CREDENTIALS,
    externalMongo: c.MONGO_URL,
    instance: c.STORMHOOK_INSTANCE,
    privateInfraDir: c.STORMHOOK_PRIVATE_INFRA,
    topicPrefix: c.STORMHOOK_TOPIC_PREFIX,
    openMeteo: c.STORMHOOK_OPEN_METEO,
    linkOrigins: c.STORMHOOK_ALLOWED_LINK_ORIGINS ?? localLinkOrigins(c.STORMHOOK_HOST, c.STORMHOOK_GATEWAY_PORT),
    ssrfAllowCidrs: ssrfAllowCidrs(c.NOTIFIER_SSRF_ALLOW_CIDRS),
    feedSimulator: c.STORMHOOK_FEED_SIM ? { args: [...FEED_SIM_DEFAULT_ARGS, ...(c.STORMHOOK_FEED_SIM_ARGS ?? '').split(/\s+/).filter(Boolean)] } : undefined,
  };
}
