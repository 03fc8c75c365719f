import assert from 'node:assert/strict';
import { fail, ok, type Result } from './result.js';

type Parsed = Result<number, { kind: 'validation'; field: string }>;

function parse(text: string): Parsed {
  const value = Number(text);
  return Number.isInteger(value) ? ok(value) : fail({ kind: 'validation', field: 'count' });
}

describe('Result', () => {
  it('carries the value of a success and the error of a failure', () => {
    assert.deepEqual(parse('12'), { ok: true, value: 12 });
    assert.deepEqual(parse('twelve'), { ok: false, error: { kind: 'validation', field: 'count' } });
  });

  it('narrows on ok, so the value is reachable only after the check', () => {
    const result = parse('7');
    assert.equal(result.ok ? result.value + 1 : result.error.field, 8);
  });
});
