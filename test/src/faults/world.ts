import { randomBytes } from 'node:crypto';
import * as alarmMatcher from '@stormhook/alarm-matcher';
import * as gateway from '@stormhook/gateway';
import * as geo from '@stormhook/geo';
import { createClient, testInternalTokens, tokenOfRequestPrincipal } from '@stormhook/grpc';
import * as identity from '@stormhook/identity';
import * as ingest from '@stormhook/ingest';
import { createKafkaClient, createPublisher, EventTypes, topicNamer, TopicNames, type EventToPublish, type Publisher, type TopicName } from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import * as notifier from '@stormhook/notifier';
import { notificationV1, weatherV1 } from '@stormhook/proto';
import type { LagGroup } from '../bench/consumer-lag.js';
import { freePort, freePortBlock, testInfra, uniqueName, testKafkaEnv } from '@stormhook/testing';
import { ADMIN, type Answer } from '../support/api-session.js';
import { identityTestEnv } from '../support/test-env.js';
import { spawnService, type ServiceChild } from './children.js';
import { FaultReceiver } from './receiver.js';

export interface Registration {
  id: string;
  recipientId: string;
  point: { lat: number; lng: number };
}

/** What a scenario counts; `lost` and `missingRegistrations` must be 0 for it to pass. */
export interface Tally {
  accepted: number;
  due: number;
  delivered: number;
  duplicates: number;
  lost: number;
  missingRegistrations: number;
  status5xx: number;
  status503: number;
}

/** How many of each stage run; a stage with 2 or more runs as that many processes in one consumer group. */
export interface Replicas {
  ingest: number;
  matcher: number;
  notifier: number;
  /** 0: one gateway in this process (the default); otherwise that many gateway processes. */
  gateway: number;
}

export interface WorldStartOptions {
  /** Also run ingest as a child, for scenarios that publish on the raw feed topics. */
  ingest?: boolean;
  /** Runs once the database prefix is fixed and before any matcher starts. */
  beforeMatchers?: () => Promise<void>;
  matcherStartTimeoutMs?: number;
  /** Replicas per stage (ingest's count applies with `ingest`); the matcher count argument stays the default. */
  replicas?: Partial<Omit<Replicas, 'matcher'>>;
}

/**
 * Geo and identity in this process; the notifier, alarm-matcher and ingest as child processes on
 * fixed ports (so a killed one can be replaced at the same address), the gateway in this process or
 * as children; all against the private broker and database of `npm run faults`, under a fresh topic
 * and database prefix. With replicas, callers reach a stage's gRPC through one target listing every
 * replica (grpc-js `ipv4:` with several addresses): a call that finds its replica gone reconnects to
 * another, as a Kubernetes Service hands a new connection to a live pod.
 */
export class World {
  readonly receiver = new FaultReceiver();
  readonly notifiers: ServiceChild[] = [];
  readonly ingests: ServiceChild[] = [];
  readonly matchers: ServiceChild[] = [];
  readonly gateways: ServiceChild[] = [];
  /** API calls that found their gateway gone and were sent to the next one (as a load balancer retries a refused connection). */
  gatewayFailovers = 0;
  private readonly stops: Array<() => Promise<unknown>> = [];
  private readonly env: Record<string, string>;
  private readonly notifierEnv: Record<string, string>;
  private readonly matcherEnv: Record<string, string>;
  private baseUrls: string[] = [];
  private nextGateway = 0;
  private token = '';
  private publisher!: Publisher;
  private counter = 0;
  /** Fixed ports per replica: gRPC for notifier and matcher, HTTP for gateway processes. */
  private readonly ports = { notifier: [] as number[], matcher: [] as number[], gateway: [] as number[] };
  private ingestReplicas = 1;
  /** Counts of 5xx answers seen by `call` (503 counted apart too). */
  status5xx = 0;
  status503 = 0;
  /** Every 5xx status seen, by code (a diagnosis aid when a scenario fails). */
  readonly statuses5xx = new Map<number, number>();

  constructor(
    readonly name: string,
    options: { matcherEnv?: Record<string, string>; notifierEnv?: Record<string, string> } = {},
  ) {
    const infra = testInfra();
    this.env = {
      ...testKafkaEnv(infra),
      MONGO_URL: infra.mongoUrl,
      ...infra.internalKeys,
      LOG_LEVEL: 'silent',
      STORMHOOK_DB_PREFIX: uniqueName(`flt_${name}`).replace(/-/g, '_'),
      STORMHOOK_TOPIC_PREFIX: uniqueName(`flt-${name}`),
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: '0',
    };
    this.notifierEnv = {
      CREDENTIAL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      NOTIFIER_SSRF_ALLOW_CIDRS: '127.0.0.1/32',
      NOTIFIER_POLL_INTERVAL_MS: '100',
      ...options.notifierEnv,
    };
    this.matcherEnv = { ALARM_MAX_EVENT_AGE_MS: String(60 * 60_000), ...options.matcherEnv };
  }

  /** Topic prefix of this world's services. */
  get topicPrefix(): string {
    return this.env['STORMHOOK_TOPIC_PREFIX']!;
  }

  /** Database prefix of this world's services (a benchmark seeds a service's database under it). */
  get dbPrefix(): string {
    return this.env['STORMHOOK_DB_PREFIX']!;
  }

  /** The first (or only) notifier process. */
  get notifier(): ServiceChild | undefined {
    return this.notifiers[0];
  }

  /** The first (or only) ingest process. */
  get ingest(): ServiceChild | undefined {
    return this.ingests[0];
  }

  async start(matcherCount = 1, options: WorldStartOptions = {}): Promise<void> {
    const replicas: Replicas = {
      ingest: options.replicas?.ingest ?? 1,
      matcher: matcherCount,
      notifier: options.replicas?.notifier ?? 1,
      gateway: options.replicas?.gateway ?? 0,
    };
    this.ingestReplicas = replicas.ingest;
    await this.receiver.start();
    this.stops.push(() => this.receiver.stop());
    const logger = createLogger({ service: 'faults', level: 'silent' });
    const geoService = await geo.start(geo.loadConfig(this.env), { logger });
    this.stops.push(() => geoService.stop());
    this.env['GEO_GRPC_ADDRESS'] = `127.0.0.1:${geoService.port}`;
    // One block for all: separate probes could hand out the same free port twice.
    const count = replicas.notifier + replicas.matcher + replicas.gateway;
    const base = await freePortBlock(count);
    const block = Array.from({ length: count }, (_, i) => base + i);
    this.ports.notifier = block.splice(0, replicas.notifier);
    this.ports.matcher = block.splice(0, replicas.matcher);
    this.ports.gateway = block;
    this.env['NOTIFIER_GRPC_ADDRESS'] = grpcTarget(this.ports.notifier);
    for (let i = 0; i < replicas.notifier; i++) await this.startNotifier(i);
    const identityService = await identity.start(identity.loadConfig({ ...this.env, ...identityTestEnv() }), { logger });
    this.stops.push(() => identityService.stop());
    this.env['IDENTITY_GRPC_ADDRESS'] = `127.0.0.1:${identityService.port}`;
    if (options.ingest) for (let i = 0; i < replicas.ingest; i++) await this.startIngest(i);
    await options.beforeMatchers?.();
    // Matchers start one after the other (each loads the whole registration index).
    for (let i = 0; i < matcherCount; i++) await this.startMatcher(this.ports.matcher[i]!, options.matcherStartTimeoutMs);
    this.env['ALARM_MATCHER_GRPC_ADDRESS'] = grpcTarget(this.ports.matcher);
    if (replicas.gateway === 0) {
      const running = await gateway.start(gateway.loadConfig({ ...this.env, HTTP_HOST: '127.0.0.1', HTTP_PORT: '0' }), { logger });
      this.stops.push(() => running.stop());
      this.baseUrls = [`http://127.0.0.1:${running.port}`];
    } else {
      for (let i = 0; i < replicas.gateway; i++) await this.startGateway(i);
      this.baseUrls = this.ports.gateway.map((port) => `http://127.0.0.1:${port}`);
    }
    this.publisher = createPublisher(
      createKafkaClient({ brokers: testInfra().kafkaBrokers, credentials: testInfra().kafkaCredentials, clientId: `faults-${this.name}`, logger }),
      {
        logger,
        clientId: `faults-${this.name}`,
        prefix: this.env['STORMHOOK_TOPIC_PREFIX']!,
      },
    );
    await this.publisher.connect();
    this.stops.push(() => this.publisher.disconnect());
    this.token = await this.apiUser();
  }

  /** Starts notifier replica `replica` (again, after a kill) at its fixed address and instance id. */
  async startNotifier(replica = 0): Promise<ServiceChild> {
    const port = this.ports.notifier[replica];
    if (port === undefined) throw new Error(`no notifier replica ${replica}`);
    const child = await spawnService(
      replicaName('notifier', replica, this.ports.notifier.length),
      'notifier',
      { ...this.env, ...(this.ports.notifier.length > 1 ? { NOTIFIER_INSTANCE_ID: `faults-notifier-${replica + 1}` } : {}), ...this.notifierEnv },
      port,
    );
    this.notifiers[replica] = child;
    return child;
  }

  /** Starts ingest replica `replica` (again, after a kill) on a fresh port. */
  async startIngest(replica = 0): Promise<ServiceChild> {
    const child = await spawnService(replicaName('ingest', replica, this.ingestReplicas), 'ingest', this.env, await freePort());
    this.ingests[replica] = child;
    return child;
  }

  /** Starts gateway process `replica` (again, after a kill) on its fixed HTTP port. */
  async startGateway(replica: number): Promise<ServiceChild> {
    const port = this.ports.gateway[replica];
    if (port === undefined) throw new Error(`no gateway replica ${replica}`);
    const child = await spawnService(`gateway-${replica + 1}`, 'gateway', { ...this.env, HTTP_HOST: '127.0.0.1', HTTP_PORT: String(port) }, await freePort());
    this.gateways[replica] = child;
    return child;
  }

  /**
   * Creates a webhook endpoint pointing at the receiver for each account, straight on the notifier
   * (accounts whose registrations were seeded into the matcher's database rather than registered
   * through the API). `concurrency` calls at a time.
   */
  async createEndpoints(
    accountIds: readonly string[],
    policy: { timeoutMs: number; maxRetries: number; retryDelaySeconds: number },
    concurrency = 16,
  ): Promise<void> {
    const client = createClient(notificationV1.NotifierService, this.env['NOTIFIER_GRPC_ADDRESS']!, {
      deadlineMs: 15_000,
      // Only the alarm-matcher creates endpoints (packages/grpc GRPC_RPC_CALLERS).
      internalToken: tokenOfRequestPrincipal(testInternalTokens('alarm-matcher'), 'notifier'),
    });
    try {
      const queue = [...accountIds];
      const worker = async () => {
        for (let accountId = queue.shift(); accountId !== undefined; accountId = queue.shift()) {
          await client.createWebhookEndpoint({
            accountId,
            ownerEmail: '',
            config: { url: this.receiver.url('/hook'), httpMethod: 'POST', contentType: 'application/json', requestHeaders: {}, deliveryPolicy: policy },
          });
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
    } finally {
      client.close();
    }
  }

  /** Address of this world's geo service (a benchmark reads the boundaries the matcher matches against). */
  get geoAddress(): string {
    return this.env['GEO_GRPC_ADDRESS']!;
  }

  /** The settings the matchers of this world run with, as they load them. */
  matcherConfig(): alarmMatcher.Config {
    return alarmMatcher.loadConfig({ ...this.env, ...this.matcherEnv });
  }

  /** How long a notifier's claim of an attempt lasts in this world (a killed one's work waits that long). */
  get notifierLeaseMs(): number {
    return notifier.loadConfig({ ...this.env, ...this.notifierEnv }).NOTIFIER_LEASE_MS;
  }

  /** The consumer groups of the lightning path and the topics they read, as the services name them. */
  lagGroups(): LagGroup[] {
    const topics = topicNamer(this.topicPrefix);
    return [
      { name: 'ingest', groupId: ingest.consumerGroup(ingest.loadConfig(this.env)), topic: topics.physical(TopicNames.FeedLightning) },
      {
        name: 'matcher',
        groupId: alarmMatcher.weatherConsumerGroup(alarmMatcher.loadConfig({ ...this.env, ...this.matcherEnv })),
        topic: topics.physical(TopicNames.WeatherLightning),
      },
      {
        name: 'notifier',
        groupId: notifier.consumerGroups(notifier.loadConfig({ ...this.env, ...this.notifierEnv })).alarms,
        topic: topics.physical(TopicNames.AlarmTriggered),
      },
    ];
  }

  /** Starts a matcher on `port`; with `replica`, (re)starts that replica (after a kill) under its instance id. */
  async startMatcher(port: number, timeoutMs?: number, replica = this.matchers.length): Promise<ServiceChild> {
    const matcher = await spawnService(
      `alarm-matcher-${replica + 1}`,
      'alarm-matcher',
      { ...this.env, ...this.matcherEnv, ALARM_INSTANCE_ID: `faults-matcher-${replica + 1}` },
      port,
      timeoutMs,
    );
    this.matchers[replica] = matcher;
    return matcher;
  }

  /** The fixed gRPC port of matcher replica `replica` (a restart binds it again). */
  matcherPort(replica: number): number {
    const port = this.ports.matcher[replica];
    if (port === undefined) throw new Error(`no matcher replica ${replica}`);
    return port;
  }

  children(): ServiceChild[] {
    return [...this.notifiers, ...this.ingests, ...this.matchers, ...this.gateways];
  }

  async call(method: string, path: string, options: { body?: unknown; token?: string } = {}): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (options.token) headers['authorization'] = `Bearer ${options.token}`;
    const init: RequestInit = { method, headers, signal: AbortSignal.timeout(15_000) };
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(options.body);
    }
    const response = await this.fetchAnyGateway(path, init);
    const text = await response.text();
    if (response.status >= 500) {
      this.status5xx++;
      this.statuses5xx.set(response.status, (this.statuses5xx.get(response.status) ?? 0) + 1);
    }
    if (response.status === 503) this.status503++;
    let body: Record<string, any>;
    try {
      body = text === '' ? {} : (JSON.parse(text) as Record<string, any>);
    } catch {
      body = { raw: text };
    }
    return { status: response.status, headers: response.headers, body };
  }

  /**
   * Round robin over the gateways; a refused connection goes to the next one (a load balancer does
   * that for a pod that died), counted in `gatewayFailovers`. A request that got no answer at all
   * fails: it may have been carried out.
   */
  private async fetchAnyGateway(path: string, init: RequestInit): Promise<Response> {
    const first = this.nextGateway++ % this.baseUrls.length;
    for (let k = 0; ; k++) {
      const url = this.baseUrls[(first + k) % this.baseUrls.length]!;
      try {
        return await fetch(`${url}${path}`, init);
      } catch (error) {
        if (k + 1 >= this.baseUrls.length || !connectionRefused(error)) throw error;
        this.gatewayFailovers++;
      }
    }
  }

  private async apiUser(): Promise<string> {
    const login = async (username: string, password: string) =>
      String((await this.call('POST', '/v1/auth/login', { body: { username, password } })).body['accessToken']);
    const admin = await login(ADMIN.username, ADMIN.password);
    const username = `faults-${Date.now().toString(36)}@example.com`;
    const password = 'faults-password-1';
    const created = await this.call('POST', '/v1/users/create', {
      token: admin,
      body: { username, firstName: 'Fault', lastName: 'Tester', role: 'API_USER', password },
    });
    if (created.status !== 201) throw new Error(`cannot create user: ${created.status} ${JSON.stringify(created.body)}`);
    const account = await this.call('POST', '/v1/accounts/create', {
      token: admin,
      body: { userId: created.body['userId'], type: 'ORGANIZATION', subscriptionPlan: 'PREMIUM_MONTHLY' },
    });
    if (account.status !== 200) throw new Error(`cannot create account: ${account.status} ${JSON.stringify(account.body)}`);
    return login(username, password);
  }

  /** A customer's read (GET /v1/users/me) through the gateways: its status, 0 when none answered. */
  async readOwnUser(): Promise<number> {
    return (await this.call('GET', '/v1/users/me', { token: this.token }).catch(() => ({ status: 0 }))).status;
  }

  /** Registers one point alarm on its own grid cell (13 km apart, radius 3 km: one strike matches one alarm). */
  async register(): Promise<{ registration?: Registration; status: number }> {
    const n = this.counter++;
    return this.registerPoint(`${this.name}-${n}`, { lat: 38.0 + (n % 16) * 0.13, lng: 31.0 + Math.floor(n / 16) * 0.13 }, 3_000);
  }

  /** Registers a lightning point alarm through the API, its webhook pointing at the receiver. */
  async registerPoint(recipientId: string, point: { lat: number; lng: number }, radius: number): Promise<{ registration?: Registration; status: number }> {
    const answer = await this.call('POST', '/v1/alarms/points/register', {
      token: this.token,
      body: {
        recipientId,
        boundary: { point, radius },
        webhook: {
          url: this.receiver.url('/hook'),
          httpMethod: 'POST',
          contentType: 'application/json',
          deliveryPolicy: { timeout: 4_000, maxRetries: 8, retryDelay: 2 },
        },
        filter: { lightning: {} },
      },
    }).catch(() => ({ status: 0, body: {} as Record<string, any> }));
    if (answer.status !== 200) return { status: answer.status };
    return { status: 200, registration: { id: String(answer.body['registrationId']), recipientId, point } };
  }

  /** Publishes on any catalogue topic under this world's prefix (the raw feed topics, for ingest). */
  async publish(topic: TopicName, events: EventToPublish[]): Promise<void> {
    await this.publisher.publish(topic, events);
  }

  /** Publishes one strike on the registration's point, retrying until the broker takes it; returns its event id. */
  async strike(registration: Registration, deadlineMs = 120_000): Promise<string> {
    const eventId = `ltg_${this.name}_${registration.recipientId}_${Date.now()}`;
    const event = weatherV1.LightningEvent.create({
      eventId,
      sourceEventId: eventId,
      revision: { revision: 1, ingestedEpochMs: Date.now() },
      areaKey: 'sxk',
      timeEpochMs: Date.now(),
      type: 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND',
      location: registration.point,
      peakCurrentAmperes: -20_000,
      multiplicity: 1,
    });
    const until = Date.now() + deadlineMs;
    for (;;) {
      try {
        await this.publisher.publish(TopicNames.WeatherLightning, [
          { key: event.areaKey, value: weatherV1.LightningEvent.encode(event), eventType: EventTypes.LightningEvent, eventId: `evt_${eventId}` },
        ]);
        return eventId;
      } catch (error) {
        if (Date.now() > until) throw error;
        await sleep(500);
      }
    }
  }

  /** Registrations the API no longer knows, and for each what the API answered (a diagnosis aid). */
  async missing(registrations: Registration[]): Promise<{ count: number; answers: string[] }> {
    const answers: string[] = [];
    for (const r of registrations) {
      // Asked right after an outage, a service may still answer 503 for a moment: that is not a loss, so ask again.
      let answer = await this.call('GET', `/v1/alarms/points/get-by-recipient-id/${r.recipientId}`, { token: this.token }).catch(() => ({
        status: 0,
        headers: new Headers(),
        body: {} as Record<string, any>,
      }));
      for (let retry = 0; retry < 15 && (answer.status === 503 || answer.status === 0); retry++) {
        await sleep(1_000);
        answer = await this.call('GET', `/v1/alarms/points/get-by-recipient-id/${r.recipientId}`, { token: this.token }).catch(() => ({
          status: 0,
          headers: new Headers(),
          body: {} as Record<string, any>,
        }));
      }
      const listed = Array.isArray(answer.body['registrations']) ? (answer.body['registrations'] as Array<{ id?: string; registrationId?: string }>) : [];
      if (!listed.some((x) => (x.registrationId ?? x.id) === r.id)) {
        answers.push(
          `${r.recipientId} (${r.id}): ${answer.status}, ${listed.length} listed${answer.status === 200 ? '' : ` ${JSON.stringify(answer.body).slice(0, 200)}`}`,
        );
      }
    }
    return { count: answers.length, answers };
  }

  /** Waits until every due event id was delivered (or `timeoutMs`), then counts. */
  async tally(registrations: Registration[], due: string[], timeoutMs = 90_000): Promise<Tally> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline && due.some((id) => !this.receiver.eventCounts().has(id))) await sleep(500);
    await sleep(1_500); // room for late duplicates to show up
    const counts = this.receiver.eventCounts();
    const delivered = due.filter((id) => counts.has(id)).length;
    const duplicates = due.reduce((sum, id) => sum + Math.max(0, (counts.get(id) ?? 0) - 1), 0);
    return {
      accepted: registrations.length,
      due: due.length,
      delivered,
      duplicates,
      lost: due.length - delivered,
      missingRegistrations: (await this.missing(registrations)).count,
      status5xx: this.status5xx,
      status503: this.status503,
    };
  }

  async stop(): Promise<void> {
    for (const child of this.children()) await child.kill('SIGTERM');
    for (const stop of this.stops.reverse()) await Promise.resolve(stop()).catch(() => undefined);
  }
}

/** One gRPC target for a stage's replicas: `127.0.0.1:p` for one, grpc-js's `ipv4:` address list for several. */
function grpcTarget(ports: readonly number[]): string {
  return ports.length === 1 ? `127.0.0.1:${ports[0]}` : `ipv4:${ports.map((p) => `127.0.0.1:${p}`).join(',')}`;
}

function replicaName(stage: string, replica: number, replicas: number): string {
  return replicas > 1 || replica > 0 ? `${stage}-${replica + 1}` : stage;
}

function connectionRefused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } }).cause;
  return cause?.code === 'ECONNREFUSED';
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
