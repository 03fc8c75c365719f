import assert from 'node:assert/strict';
import type { Answer } from './api-client.js';

/** Why a value is not an ErrorResponse (interface.md 2.1), or undefined when it is one. */
export function errorShapeProblem(body: unknown, status: number): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body is not a JSON object';
  const b = body as Record<string, unknown>;
  // "nanosecond-precision local date-time form": no zone, up to nine fraction digits.
  if (typeof b['timestamp'] !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?$/.test(b['timestamp']))
    return `timestamp ${JSON.stringify(b['timestamp'])} is not a local date-time`;
  if (b['status'] !== status) return `status ${JSON.stringify(b['status'])} is not the HTTP status ${status}`;
  for (const field of ['error', 'message', 'path']) {
    if (typeof b[field] !== 'string' || (b[field] as string).length === 0) return `${field} is missing or empty`;
  }
  if (b['messages'] !== undefined && !(Array.isArray(b['messages']) && b['messages'].every((m) => typeof m === 'string')))
    return 'messages is not an array of strings';
  return undefined;
}

/** Asserts an ErrorResponse with this status (and path, when given); returns its body. */
export function assertError(answer: Answer, status: number, path?: string): { message: string; error: string; path: string; messages?: string[] } {
  assert.equal(answer.status, status, `expected ${status}, got ${answer.status}: ${answer.text.slice(0, 1000)}`);
  assert.match(answer.headers.get('content-type') ?? '', /application\/json/);
  const problem = errorShapeProblem(answer.body, status);
  assert.equal(problem, undefined, `not an ErrorResponse (${problem}): ${answer.text.slice(0, 1000)}`);
  if (path !== undefined) assert.equal(answer.body.path, path);
  return answer.body;
}
