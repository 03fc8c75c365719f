import assert from 'node:assert/strict';
import { ConfigError } from './config-error.js';
import { defineEnv } from './define-env.js';
import { bool, int, list, num, oneOf, port, str, url } from './kinds.js';
import type { VarSpec } from './var-spec.js';

/** Loads one variable X of the given kind from `raw` (undefined = unset). */
function one<T>(kind: VarSpec<T>, raw: string | undefined): T {
  return defineEnv({ X: kind })({ X: raw }).X;
}

/** The message of the ConfigError thrown for one variable X, or fails. */
function problem<T>(kind: VarSpec<T>, raw: string | undefined): string {
  try {
    one(kind, raw);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.message;
  }
  assert.fail(`expected ${JSON.stringify(raw)} to be rejected`);
}

describe('config kinds', () => {
  it('str: passes text, enforces length, pattern and ajv-formats formats', () => {
    assert.equal(one(str(), ' a b '), ' a b ');
    assert.equal(one(str({ default: 'd' }), undefined), 'd');
    assert.equal(problem(str({ minLength: 3 }), 'ab'), 'Invalid configuration: X must be a string of at least 3 characters (got "ab")');
    assert.match(problem(str({ pattern: '^[a-z]+$' }), 'A1'), /X must be a string matching \/\^\[a-z\]\+\$\/ \(got "A1"\)/);
    assert.equal(one(str({ format: 'hostname' }), 'kafka.internal'), 'kafka.internal');
    assert.match(problem(str({ format: 'hostname' }), 'not a host'), /in hostname format/);
    assert.equal(one(str({ optional: true }), undefined), undefined);
    assert.equal(str({ description: 'bind address' }).description, 'bind address');
  });

  it('int: plain digits only, bounds checked', () => {
    assert.equal(one(int(), '42'), 42);
    assert.equal(one(int(), '-7'), -7);
    for (const bad of ['1.5', '0x10', '1e3', 'abc', '12abc']) {
      assert.match(problem(int(), bad), /X must be an integer \(got/, bad);
    }
    assert.equal(problem(int({ min: 1, max: 10 }), '11'), 'Invalid configuration: X must be an integer from 1 to 10 (got "11")');
    assert.match(problem(int({ min: 1 }), '0'), /an integer of at least 1/);
    assert.match(problem(int({ max: 1 }), '2'), /an integer of at most 1/);
  });

  it('num: decimals and exponents', () => {
    assert.equal(one(num(), '0.25'), 0.25);
    assert.equal(one(num(), '1e3'), 1000);
    assert.match(problem(num({ min: 0, max: 1 }), '1.5'), /X must be a number from 0 to 1 \(got "1.5"\)/);
    assert.match(problem(num(), 'NaN'), /a number/);
  });

  it('port: 0 to 65535 with a default', () => {
    assert.equal(one(port({ default: 8080 }), undefined), 8080);
    assert.equal(one(port(), '0'), 0);
    assert.equal(one(port(), '65535'), 65535);
    assert.equal(problem(port(), '65536'), 'Invalid configuration: X must be an integer from 0 to 65535 (got "65536")');
  });

  it('bool: the usual spellings, anything else rejected', () => {
    for (const yes of ['true', 'TRUE', '1', 'yes', 'on']) assert.equal(one(bool(), yes), true, yes);
    for (const no of ['false', '0', 'No', 'off']) assert.equal(one(bool(), no), false, no);
    assert.equal(one(bool({ default: false }), ''), false);
    assert.match(problem(bool(), 'maybe'), /X must be a boolean .* \(got "maybe"\)/);
  });

  it('list: comma-separated, trimmed, not empty, items checked', () => {
    assert.deepEqual(one(list(), ' a:1 , b:2,'), ['a:1', 'b:2']);
    assert.deepEqual(one(list({ separator: ';' }), 'a;b'), ['a', 'b']);
    const fallback = ['127.0.0.1:9092'];
    const loaded = one(list({ default: fallback }), undefined);
    assert.deepEqual(loaded, fallback);
    assert.notEqual(loaded, fallback, 'a default array is copied, never shared');
    assert.match(problem(list(), ' , '), /X must be a comma-separated list of at least 1 item \(got " , "\)/);
    assert.match(problem(list({ itemPattern: '^[^:]+:\\d+$' }), 'a:1,b'), /each matching/);
  });

  it('url: absolute URLs, protocols restricted, MongoDB seed lists accepted', () => {
    const mongo = url({ protocols: ['mongodb', 'mongodb+srv'] });
    assert.equal(one(mongo, 'mongodb://127.0.0.1:27017'), 'mongodb://127.0.0.1:27017');
    assert.equal(one(mongo, 'mongodb+srv://user:pw@cluster.example.net/db'), 'mongodb+srv://user:pw@cluster.example.net/db');
    assert.equal(one(mongo, 'mongodb://u:p@a:27017,b:27017/db?replicaSet=rs0'), 'mongodb://u:p@a:27017,b:27017/db?replicaSet=rs0');
    assert.equal(
      problem(mongo, 'http://127.0.0.1:27017'),
      'Invalid configuration: X must be a URL with protocol mongodb or mongodb+srv (got "http://127.0.0.1:27017")',
    );
    assert.match(problem(mongo, 'mongodb://a:27017,/db'), /X must be a URL/);
    assert.equal(one(url(), 'https://example.com/hook'), 'https://example.com/hook');
    assert.match(problem(url(), 'example.com'), /X must be an absolute URL \(got "example.com"\)/);
    assert.match(problem(url(), 'http://exa mple.com'), /X must be an absolute URL/);
  });

  it('oneOf: exactly one of the listed values', () => {
    const level = oneOf(['debug', 'info', 'warn', 'error'], { default: 'info' });
    assert.equal(one(level, undefined), 'info');
    assert.equal(one(level, 'warn'), 'warn');
    assert.equal(problem(level, 'loud'), 'Invalid configuration: X must be one of debug, info, warn, error (got "loud")');
  });
});
