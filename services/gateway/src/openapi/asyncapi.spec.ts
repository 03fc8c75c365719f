import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireRepoRoot } from '@stormhook/config';
import { Ajv } from 'ajv';
import { EVENT_HEADERS, TOPICS, type TopicName } from '@stormhook/kafka';
import { root } from '@stormhook/proto';
import { soloAbuseCounter } from '../test-support/abuse-counter.js';
import { AbuseLimits } from '../http/rate-limits.js';
import { request, serve, type RunningApp } from '../test-support/serve.js';
import { buildAsyncApiDocument } from './asyncapi.js';
import { refsOf, resolveRef } from '../test-support/json-refs.js';

type Doc = Record<string, any>;

/** Component and channel keys of AsyncAPI 3.0 (its JSON Schema's patternProperties). */
const KEY = /^[a-zA-Z0-9.\-_]+$/;
const TOP_LEVEL = new Set(['asyncapi', 'id', 'info', 'servers', 'defaultContentType', 'channels', 'operations', 'components']);

const repoRoot = (): string => requireRepoRoot(dirname(fileURLToPath(import.meta.url)));

/** The rows of the Markdown table under `## <heading>` of FEEDS.md, cells without backticks. */
function feedsTable(heading: string): string[][] {
  const text = readFileSync(join(repoRoot(), 'proto/stormhook/feed/v1/FEEDS.md'), 'utf8');
  const section = text.split(/^## /m).find((part) => part.startsWith(`${heading}\n`));
  assert.ok(section, `FEEDS.md has a section ${heading}`);
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2); // header and separator
  assert.ok(rows.length > 0, `FEEDS.md ${heading} has a table`);
  return rows.map((row) =>
    row
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim().replaceAll('`', '')),
  );
}

const feedTopics = (Object.keys(TOPICS) as TopicName[]).filter((name) => name.startsWith('feed.'));

describe('AsyncAPI document of the feed topics', () => {
  const doc: Doc = JSON.parse(JSON.stringify(buildAsyncApiDocument()));

  it('is AsyncAPI 3.0 in shape: version, info, known top-level fields, well-formed keys, send/receive operations', () => {
    assert.equal(doc['asyncapi'], '3.0.0');
    assert.equal(typeof doc['info']?.title, 'string');
    assert.equal(typeof doc['info']?.version, 'string');
    for (const key of Object.keys(doc)) assert.ok(TOP_LEVEL.has(key), `top-level field ${key}`);
    for (const map of [doc['channels'], doc['operations'], doc['components'].messages, doc['components'].schemas]) {
      for (const key of Object.keys(map)) assert.match(key, KEY);
    }
    for (const [id, server] of Object.entries(doc['servers'] as Doc)) {
      assert.equal((server as Doc)['protocol'], 'kafka', id);
      assert.doesNotMatch((server as Doc)['host'], /:\/\//, 'AsyncAPI 3 hosts carry no scheme');
    }
    for (const [id, operation] of Object.entries(doc['operations'] as Doc)) {
      assert.ok(['send', 'receive'].includes(operation['action']), id);
      const channel = resolveRef(doc, operation['channel'].$ref) as Doc;
      assert.ok(channel, `${id}: channel resolves`);
      // AsyncAPI 3: an operation's messages must be messages of its channel.
      for (const message of operation['messages']) assert.ok(message.$ref.startsWith(`${operation['channel'].$ref}/messages/`), `${id}: ${message.$ref}`);
    }
  });

  it('is valid against the official AsyncAPI 3.0.0 JSON Schema (@asyncapi/specs)', () => {
    // The schema the AsyncAPI parser and tooling validate with; the shape test above only names fields.
    const specs = createRequire(import.meta.url)('@asyncapi/specs') as { schemasWithoutId: Record<string, object> };
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    const validate = ajv.compile(specs.schemasWithoutId['3.0.0']!);
    const valid = validate(doc);
    assert.ok(valid, JSON.stringify(validate.errors?.slice(0, 10), null, 2));
    // And it is not a schema that accepts anything: a document without its required info is refused.
    assert.equal(validate({ ...doc, info: undefined }), false);
    const [firstOperation] = Object.keys(doc.operations as Record<string, unknown>);
    const asVersion2 = JSON.parse(JSON.stringify(doc)) as { operations: Record<string, { action: string }> };
    asVersion2.operations[firstOperation!]!.action = 'publish';
    assert.equal(validate(asVersion2), false, "AsyncAPI 2's publish is not a 3.0 action");
  });

  it('has a channel for every feed and weather topic of the catalogue, with its partitions and retention', () => {
    const expected = (Object.keys(TOPICS) as TopicName[]).filter((name) => name.startsWith('feed.') || name.startsWith('weather.'));
    assert.ok(feedTopics.length >= 4);
    assert.deepEqual(Object.keys(doc['channels']).sort(), [...expected].sort());
    for (const topic of expected) {
      const channel = doc['channels'][topic];
      assert.equal(channel.address, topic);
      assert.equal(channel.bindings.kafka.partitions, TOPICS[topic].partitions);
      assert.equal(channel.bindings.kafka.topicConfiguration['retention.ms'], TOPICS[topic].retentionMs);
      assert.deepEqual(Object.keys(channel.messages), [...TOPICS[topic].eventTypes]);
    }
    assert.ok(
      Object.keys(doc['channels']).every((name) => !name.startsWith('alarm.') && !name.startsWith('deadletter.')),
      'internal topics stay out',
    );
  });

  it('names an existing protobuf message in every message, and describes its fields from the descriptor', () => {
    for (const [name, message] of Object.entries(doc['components'].messages as Doc)) {
      assert.equal(message['name'], name);
      const type = root.lookupType(name); // throws for a name the contract tree does not have
      const payload = resolveRef(doc, message['payload'].$ref) as Doc;
      assert.equal(payload['x-protobuf-type'], name);
      assert.deepEqual(
        Object.keys(payload['properties']),
        type.fieldsArray.map((field) => field.name),
        `${name}: every field, in order`,
      );
      assert.equal(message['contentType'], 'application/x-protobuf');
      assert.equal(message['headers'].properties[EVENT_HEADERS.eventType].const, name);
    }
    for (const topic of Object.keys(doc['channels']).filter((name) => name.startsWith('weather.'))) {
      const message = doc['components'].messages[TOPICS[topic as TopicName].eventTypes[0] ?? ''];
      const field = /`(\w+)` field/.exec(message.bindings.kafka.key.description)?.[1] ?? '';
      assert.ok((resolveRef(doc, message.payload.$ref) as Doc)['properties'][field], `${topic}: keyed by its payload field ${field}`);
    }
    const strike = doc['components'].schemas['stormhook.feed.v1.LightningStrike'];
    assert.deepEqual(strike.properties.peakCurrentAmperes, { type: 'number', format: 'double' });
    assert.deepEqual(strike.properties.version, { type: 'integer', format: 'int64' });
    const lightningType = resolveRef(doc, strike.properties.type.$ref) as Doc;
    assert.deepEqual(lightningType['enum'], ['LIGHTNING_TYPE_UNSPECIFIED', 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND', 'LIGHTNING_TYPE_FLASH_IN_CLOUD']);
  });

  it('has a resolvable target for every $ref', () => {
    const refs = refsOf(doc);
    assert.ok(refs.length > 20);
    for (const ref of refs) assert.ok(resolveRef(doc, ref) !== undefined, `${ref} resolves`);
  });

  it('agrees with the Topics and Headers tables of FEEDS.md', () => {
    const rows = feedsTable('Topics');
    assert.deepEqual(rows.map(([topic]) => topic).sort(), [...feedTopics].sort(), 'every feed topic of the catalogue is in FEEDS.md and nothing else');
    for (const [topic = '', value, header, , partitions] of rows) {
      const channel = doc['channels'][topic];
      assert.deepEqual(Object.keys(channel.messages), [value], `${topic}: value type`);
      assert.equal(doc['components'].messages[value ?? ''].headers.properties[EVENT_HEADERS.eventType].const, header, `${topic}: event-type`);
      assert.equal(String(channel.bindings.kafka.partitions), partitions, `${topic}: partitions`);
    }
    const headers = feedsTable('Headers');
    const names = headers.flatMap(([name = '']) => name.split(',').map((part) => part.trim()));
    const required = headers.filter(([, isRequired]) => isRequired === 'yes').map(([name]) => name);
    for (const topic of feedTopics) {
      const message = doc['components'].messages[TOPICS[topic].eventTypes[0] ?? ''];
      assert.deepEqual(Object.keys(message.headers.properties).sort(), [...names].sort(), `${topic}: header names`);
      assert.deepEqual([...message.headers.required].sort(), [...required].sort(), `${topic}: required headers`);
      assert.match(message.bindings.kafka.key.description, /FEEDS\.md/, `${topic}: the key is explained where it is written`);
    }
  });

  describe('served by the gateway', () => {
    let app: RunningApp;
    before(async () => {
      // Abuse limits on, tight: the document must be answered even to an address they block.
      const limits = new AbuseLimits(
        {
          authPerAddressPerMin: 0,
          passwordResetPerAddressPerHour: 0,
          unmeteredPerPrincipalPerMin: 0,
          errorsPerMin: 1,
          errorBlockS: 60,
          testDeliveriesPerAccountPerHour: 0,
          backtestsPerAccountPerHour: 0,
          localAllowancePercent: 100,
        },
        soloAbuseCounter(),
      );
      app = await serve({ screen: limits.screen });
    });
    after(() => app.close());

    it('answers GET /v1/asyncapi.json without authentication and outside the abuse limits, linked from the OpenAPI document', async () => {
      for (let i = 0; i < 3; i++) await request(app.baseUrl, 'GET', `/v1/no-such-thing-${i}`);
      assert.equal((await request(app.baseUrl, 'GET', '/v1/no-such-thing')).status, 429, 'this address is blocked');
      const answer = await request(app.baseUrl, 'GET', '/v1/asyncapi.json');
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, doc);
      const openapi = await request(app.baseUrl, 'GET', '/v1/openapi.json');
      const body = openapi.body as Doc;
      assert.equal(openapi.status, 200);
      assert.match(body['info'].description, /\(\/v1\/asyncapi\.json\)/);
      assert.deepEqual(body['paths']['/v1/asyncapi.json'].get.security, []);
    });
  });
});
