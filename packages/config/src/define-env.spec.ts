import assert from 'node:assert/strict';
import { ConfigError } from './config-error.js';
import { defineEnv } from './define-env.js';
import { bool, int, list, oneOf, port, str, url } from './kinds.js';

const loadConfig = defineEnv({
  PORT: port({ default: 8080 }),
  KAFKA_BROKERS: list({ default: ['127.0.0.1:9092'] }),
  MONGO_URL: url({ protocols: ['mongodb', 'mongodb+srv'] }),
  LOG_LEVEL: oneOf(['debug', 'info', 'warn', 'error'], { default: 'info' }),
  JWT_SECRET: str({ minLength: 32, secret: true }),
  WORKERS: int({ min: 1, max: 64, default: 4 }),
  TRACING: bool({ default: false }),
  OTLP_ENDPOINT: url({ optional: true }),
});

const valid = {
  MONGO_URL: 'mongodb://127.0.0.1:27017',
  JWT_SECRET: 'x'.repeat(32),
};

function errorOf(env: Record<string, string | undefined>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error;
  }
  assert.fail('expected a ConfigError');
}

describe('defineEnv', () => {
  it('loads typed values and applies defaults', () => {
    const config = loadConfig({ ...valid, PORT: '9000', TRACING: 'true' });
    // These assignments are the type test: they only compile if the types are inferred from the spec.
    const portNumber: number = config.PORT;
    const brokers: string[] = config.KAFKA_BROKERS;
    const level: 'debug' | 'info' | 'warn' | 'error' = config.LOG_LEVEL;
    const endpoint: string | undefined = config.OTLP_ENDPOINT;
    assert.deepEqual(
      { portNumber, brokers, level, endpoint, workers: config.WORKERS, tracing: config.TRACING },
      { portNumber: 9000, brokers: ['127.0.0.1:9092'], level: 'info', endpoint: undefined, workers: 4, tracing: true },
    );
    assert.ok(Object.isFrozen(config));
  });

  it('lists every bad variable in declaration order, with expected and got', () => {
    const error = errorOf({ PORT: 'abc', LOG_LEVEL: 'loud', JWT_SECRET: 'x'.repeat(32) });
    assert.equal(
      error.message,
      'Invalid configuration: PORT must be an integer from 0 to 65535 (got "abc"); MONGO_URL is required; ' +
        'LOG_LEVEL must be one of debug, info, warn, error (got "loud")',
    );
    assert.deepEqual(
      error.issues.map((i) => i.variable),
      ['PORT', 'MONGO_URL', 'LOG_LEVEL'],
    );
    assert.equal(error.name, 'ConfigError');
  });

  it('treats an empty or blank value as unset', () => {
    assert.equal(loadConfig({ ...valid, PORT: '' }).PORT, 8080);
    assert.equal(errorOf({ ...valid, MONGO_URL: '  ' }).message, 'Invalid configuration: MONGO_URL is required');
  });

  it('never echoes a secret', () => {
    const secret = 'short-but-very-secret';
    const error = errorOf({ ...valid, JWT_SECRET: secret });
    assert.equal(error.message, 'Invalid configuration: JWT_SECRET must be a string of at least 32 characters (value hidden)');
    assert.ok(!JSON.stringify(error.issues).includes(secret));
  });

  it('truncates long values in messages', () => {
    const error = errorOf({ ...valid, PORT: '9'.repeat(200) });
    assert.ok(error.message.length < 200, error.message);
  });

  it('fails on a default that breaks its own rule', () => {
    const load = defineEnv({ WORKERS: int({ min: 1, default: 0 }) });
    assert.throws(() => load({}), { message: 'Invalid configuration: WORKERS must be an integer of at least 1 (default 0)' });
  });

  it('reads process.env by default', () => {
    const load = defineEnv({ STORMHOOK_CONFIG_SPEC_PROBE: str({ default: 'unset' }) });
    process.env['STORMHOOK_CONFIG_SPEC_PROBE'] = 'from-process';
    try {
      assert.equal(load().STORMHOOK_CONFIG_SPEC_PROBE, 'from-process');
    } finally {
      delete process.env['STORMHOOK_CONFIG_SPEC_PROBE'];
    }
  });
});
