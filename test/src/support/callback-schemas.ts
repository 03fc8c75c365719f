import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';

/** What a receiver captured of one callback: enough to read its body and event type header. */
export interface CapturedCallback {
  headers: IncomingHttpHeaders;
  /** The exact body text. */
  body: string;
}

/** Where ajv files the document; its `$ref`s (`#/components/schemas/…`) resolve against it. */
const DOCUMENT_ID = 'urn:stormhook:openapi.json';

/**
 * The fixed fields of an OpenAPI 3.1 document object. ajv in strict mode refuses keywords it does not
 * know; these are declared as annotations so the document itself can be a schema resource, while a
 * typo inside a payload schema still fails to compile.
 */
const OPENAPI_FIELDS = ['openapi', 'info', 'jsonSchemaDialect', 'servers', 'paths', 'webhooks', 'components', 'security', 'tags', 'externalDocs'];

const pointerPart = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * The callback bodies an OpenAPI document publishes in its `webhooks` section, compiled with ajv
 * (JSON Schema 2020-12, OpenAPI 3.1's dialect). Built from the document a gateway serves, so what is
 * checked is what customers read, not the sources it was generated from.
 */
export class CallbackSchemas {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  private readonly validators = new Map<string, ValidateFunction>();
  /** The event types of the `webhooks` section, in document order. */
  readonly types: readonly string[];

  constructor(document: Record<string, unknown>) {
    ajvFormats.default(this.ajv);
    for (const field of OPENAPI_FIELDS) this.ajv.addKeyword(field);
    this.ajv.addSchema(document, DOCUMENT_ID);
    const webhooks = document['webhooks'];
    assert.ok(webhooks && typeof webhooks === 'object', 'the OpenAPI document has a webhooks section');
    this.types = Object.keys(webhooks);
  }

  /** The schemas of the document `baseUrl` serves at /v1/openapi.json. */
  static async served(baseUrl: string): Promise<CallbackSchemas> {
    const answer = await fetch(new URL('/v1/openapi.json', baseUrl));
    assert.equal(answer.status, 200, `GET /v1/openapi.json answered ${answer.status}`);
    return new CallbackSchemas((await answer.json()) as Record<string, unknown>);
  }

  private validator(type: string): ValidateFunction | undefined {
    if (!this.types.includes(type)) return undefined;
    let validate = this.validators.get(type);
    if (!validate) {
      const pointer = ['webhooks', type, 'post', 'requestBody', 'content', 'application/json', 'schema'].map(pointerPart).join('/');
      validate = this.ajv.getSchema(`${DOCUMENT_ID}#/${pointer}`);
      assert.ok(validate, `the document has a JSON request body schema for ${type}`);
      this.validators.set(type, validate);
    }
    return validate;
  }

  /**
   * What is wrong with a captured callback, one line each (none when sound): a body that is not
   * JSON, a `type` the webhooks section does not list, a `webhook-event-type` header other than the
   * body's `type`, and every violation of that type's schema.
   */
  problems(callback: CapturedCallback): string[] {
    const payload = bodyOf(callback);
    if (payload === undefined) return [`the body is not a JSON object: ${callback.body.slice(0, 200)}`];
    const type = payload['type'];
    const validate = typeof type === 'string' ? this.validator(type) : undefined;
    if (!validate) return [`type ${JSON.stringify(type)} is not an event type of the OpenAPI webhooks section`];
    const problems: string[] = [];
    const header = callback.headers['webhook-event-type'];
    if (header !== type) problems.push(`the webhook-event-type header is ${JSON.stringify(header)}, the body's type ${type}`);
    if (!validate(payload)) {
      for (const e of validate.errors ?? []) problems.push(`${type}${e.instancePath} ${e.message ?? 'is invalid'} ${JSON.stringify(e.params)}`);
    }
    return problems;
  }

  /** Asserts the callback is sound (see `problems`) and returns its body. */
  assertSound(callback: CapturedCallback): Record<string, unknown> {
    const problems = this.problems(callback);
    assert.deepEqual(problems, [], `callback ${String(callback.headers['webhook-id'])} against the OpenAPI webhooks section`);
    return bodyOf(callback)!;
  }
}

/** The JSON body; an application/x-www-form-urlencoded endpoint gets the same JSON in `payload`. */
function bodyOf(callback: CapturedCallback): Record<string, unknown> | undefined {
  const form = String(callback.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
  const text = form ? (new URLSearchParams(callback.body).get('payload') ?? '') : callback.body;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
