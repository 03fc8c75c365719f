import type { EndpointConfigInput, EndpointValidationDeps } from '../domain/endpoint-input.js';
import { validateEndpointConfig } from '../domain/endpoint-input.js';
import { newWebhookEndpoint, type WebhookEndpoint } from '../domain/endpoint.js';
import { newId } from '../domain/ids.js';
import { conflict, fail, notFound, ok, validation, type Result } from '../domain/notifier-error.js';
import { generateSigningSecret } from '../domain/signing-secret.js';
import type { EndpointCache } from '../delivery/endpoint-cache.js';
import type { Clock } from '../ports/clock.js';
import type { EndpointRepository } from '../ports/endpoint-repository.js';
import { maskEndpoint, signingSecretsOf, type MaskedEndpoint, type SigningSecrets } from './endpoint-views.js';

export interface EndpointUseCaseDeps extends EndpointValidationDeps {
  repository: EndpointRepository;
  clock: Clock;
  /** Invalidated on every change so that this instance's worker sees it at once. */
  cache?: EndpointCache;
  /** Default window during which the previous secret keeps signing after a rotation (Svix: 24 h). */
  rotationWindowMs?: number;
}

export const NO_ENDPOINT = 'No webhook is stored for this account';
const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_ROTATION_WINDOW_MS = 7 * DAY_MS;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function checkEmail(email: string | undefined): Result<string | null> {
  if (!email) return ok(null);
  return EMAIL.test(email) && email.length <= 254 ? ok(email) : fail(validation('ownerEmail', 'is not a valid e-mail address'));
}

/**
 * The account's webhook endpoint: create, read (masked), update, rotate the signing secret, enable.
 * Every call names the caller's account; there is no way to address another account's endpoint.
 */
export class EndpointUseCases {
  constructor(private readonly deps: EndpointUseCaseDeps) {}

  async create(accountId: string, input: EndpointConfigInput, ownerEmail?: string): Promise<Result<{ endpoint: MaskedEndpoint; signingSecret: string }>> {
    const config = await validateEndpointConfig(input, this.deps);
    if (!config.ok) return config;
    const email = checkEmail(ownerEmail);
    if (!email.ok) return email;
    const now = this.deps.clock.now();
    const endpoint = newWebhookEndpoint(config.value, { id: newId('ep'), accountId, signingSecret: generateSigningSecret(), ownerEmail: email.value, now });
    if ((await this.deps.repository.insert(endpoint)) === 'duplicate') {
      return fail(conflict('A webhook is already stored for this account; change it with the update operation'));
    }
    this.deps.cache?.put(endpoint);
    return ok({ endpoint: maskEndpoint(endpoint), signingSecret: endpoint.signingSecret });
  }

  async get(accountId: string): Promise<Result<MaskedEndpoint>> {
    const endpoint = await this.deps.repository.findByAccount(accountId);
    return endpoint ? ok(maskEndpoint(endpoint)) : fail(notFound(NO_ENDPOINT));
  }

  async update(accountId: string, input: EndpointConfigInput, ownerEmail?: string): Promise<Result<MaskedEndpoint>> {
    const current = await this.deps.repository.findByAccount(accountId);
    if (!current) return fail(notFound(NO_ENDPOINT));
    const config = await validateEndpointConfig(input, this.deps, current.authentication);
    if (!config.ok) return config;
    const email = checkEmail(ownerEmail);
    if (!email.ok) return email;
    const next: WebhookEndpoint = { ...current, ...config.value, ownerEmail: email.value ?? current.ownerEmail, updatedAt: this.deps.clock.now() };
    await this.save(next);
    return ok(maskEndpoint(next));
  }

  async rotateSecret(accountId: string, previousValidMs?: number): Promise<Result<SigningSecrets>> {
    const current = await this.deps.repository.findByAccount(accountId);
    if (!current) return fail(notFound(NO_ENDPOINT));
    const window = previousValidMs || this.deps.rotationWindowMs || DAY_MS;
    if (!Number.isInteger(window) || window < 0 || window > MAX_ROTATION_WINDOW_MS) {
      return fail(validation('previousSecretValidMs', `must be between 0 and ${MAX_ROTATION_WINDOW_MS} milliseconds`));
    }
    const now = this.deps.clock.now();
    const next: WebhookEndpoint = {
      ...current,
      previousSigningSecret: current.signingSecret,
      previousSecretExpiresAt: new Date(now.getTime() + window),
      signingSecret: generateSigningSecret(),
      updatedAt: now,
    };
    await this.save(next);
    return ok(signingSecretsOf(next, now));
  }

  async signingSecrets(accountId: string): Promise<Result<SigningSecrets>> {
    const endpoint = await this.deps.repository.findByAccount(accountId);
    return endpoint ? ok(signingSecretsOf(endpoint, this.deps.clock.now())) : fail(notFound(NO_ENDPOINT));
  }

  /** Enables the endpoint and forgets its failure run; deliveries that died meanwhile can be redelivered. */
  async enable(accountId: string): Promise<Result<MaskedEndpoint>> {
    const current = await this.deps.repository.findByAccount(accountId);
    if (!current) return fail(notFound(NO_ENDPOINT));
    const next: WebhookEndpoint = {
      ...current,
      status: 'enabled',
      disabledReason: null,
      disabledAt: null,
      failingSince: null,
      updatedAt: this.deps.clock.now(),
    };
    await this.save(next);
    return ok(maskEndpoint(next));
  }

  private async save(endpoint: WebhookEndpoint): Promise<void> {
    await this.deps.repository.save(endpoint);
    this.deps.cache?.put(endpoint);
  }
}
