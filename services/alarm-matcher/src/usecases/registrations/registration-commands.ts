import { owns, type Caller } from '../../domain/caller.js';
import type { RegistrationDraft } from '../../domain/draft.js';
import { conflict, fail, notFound, ok, precondition, type Result } from '../../domain/errors.js';
import { areaKeyOf, KIND_NOUN, KIND_PATH, type Registration, type RegistrationKind } from '../../domain/registration.js';
import { isUuid, validateDraft } from '../../domain/validate-draft.js';
import type { CallBudget } from '../../ports/call-budget.js';
import { checkBoundary } from './boundary-check.js';
import { checkCircleInPlan } from './circle-in-plan.js';
import { buildRegistration } from './build-registration.js';
import { suspendedOf, type RegistrationDeps, type RegistrationView } from './registration-deps.js';
import { resolveWebhook } from './webhook-resolution.js';

/** The not-found answer; the same whether the id is unknown, foreign or of another kind (OWASP API1). */
export function registrationNotFound(kind: RegistrationKind, registrationId: string): ReturnType<typeof notFound> {
  return notFound(`No ${KIND_NOUN[kind]} with registrationId ${registrationId}`);
}

/**
 * Register, update and unregister: the write side of the three alarm kinds. `budget` is the API
 * caller's remaining time; the geo and notifier calls share it (see {@link CallBudget}).
 */
export class RegistrationCommands {
  constructor(private readonly deps: RegistrationDeps) {}

  private async duplicateError(registration: Registration): Promise<ReturnType<typeof conflict>> {
    const existing = await this.deps.repo.findByArea(registration.accountId, registration.kind, registration.recipientId, areaKeyOf(registration));
    const which = existing ? ` (registrationId ${existing.registrationId})` : '';
    return conflict(
      'REGISTRATION_EXISTS',
      `recipientId ${registration.recipientId} already has a ${KIND_NOUN[registration.kind]} on this boundary${which}; one registration per area per recipientId: change it with PUT /v1/alarms/${KIND_PATH[registration.kind]}/update`,
    );
  }

  async register(caller: Caller, draft: RegistrationDraft, budget?: CallBudget): Promise<Result<RegistrationView>> {
    const accountId = caller.accountId;
    if (!accountId) {
      return fail(precondition('ACCOUNT_REQUIRED', 'Your user has no account yet; create one (POST /v1/accounts/create) before registering alarms'));
    }
    const input = validateDraft(draft, 'register');
    if (!input.ok) return input;
    const facts = await checkBoundary(input.value, this.deps, budget);
    if (!facts.ok) return facts;
    if (input.value.kind === 'POINT') {
      const inside = await checkCircleInPlan(input.value.circle, accountId, this.deps, budget);
      if (!inside.ok) return inside;
    }
    const webhook = await resolveWebhook(input.value.webhook, accountId, this.deps.webhooks, budget);
    if (!webhook.ok) return webhook;
    const now = this.deps.clock.now();
    const registration = buildRegistration(
      input.value,
      facts.value,
      { registrationId: this.deps.newId(), accountId, createdAtMs: now, updatedAtMs: now, version: 1 },
      [...input.value.warnings, ...facts.value.warnings],
    );
    if ((await this.deps.repo.insert(registration)) === 'duplicate') return fail(await this.duplicateError(registration));
    await this.deps.changes.changed({ change: 'REGISTERED', registration, changedAtMs: now });
    return ok({ registration, webhook: webhook.value.view, warnings: webhook.value.warnings, ...suspendedOf(this.deps, registration) });
  }

  async update(caller: Caller, draft: RegistrationDraft, budget?: CallBudget): Promise<Result<RegistrationView>> {
    const input = validateDraft(draft, 'update');
    if (!input.ok) return input;
    const existing = await this.deps.repo.findById(input.value.registrationId);
    if (!existing || existing.kind !== draft.kind || !owns(caller, existing.accountId))
      return fail(registrationNotFound(draft.kind, input.value.registrationId));
    const facts = await checkBoundary(input.value, this.deps, budget);
    if (!facts.ok) return facts;
    if (input.value.kind === 'POINT') {
      const inside = await checkCircleInPlan(input.value.circle, existing.accountId, this.deps, budget);
      if (!inside.ok) return inside;
    }
    const webhook = await resolveWebhook(input.value.webhook, existing.accountId, this.deps.webhooks, budget);
    if (!webhook.ok) return webhook;
    const now = this.deps.clock.now();
    const registration = buildRegistration(
      input.value,
      facts.value,
      {
        registrationId: existing.registrationId,
        accountId: existing.accountId,
        createdAtMs: existing.createdAtMs,
        updatedAtMs: Math.max(now, existing.updatedAtMs),
        version: existing.version + 1,
      },
      [...input.value.warnings, ...facts.value.warnings],
    );
    const outcome = await this.deps.repo.replace(registration);
    if (outcome === 'missing') return fail(registrationNotFound(draft.kind, registration.registrationId));
    if (outcome === 'duplicate') return fail(await this.duplicateError(registration));
    await this.deps.changes.changed({ change: 'UPDATED', registration, changedAtMs: now });
    return ok({ registration, webhook: webhook.value.view, warnings: webhook.value.warnings, ...suspendedOf(this.deps, registration) });
  }

  async unregister(caller: Caller, kind: RegistrationKind, registrationId: string): Promise<Result<{ registrationId: string }>> {
    const id = registrationId.trim();
    if (!isUuid(id)) return fail(registrationNotFound(kind, id));
    const existing = await this.deps.repo.findById(id);
    if (!existing || existing.kind !== kind || !owns(caller, existing.accountId)) return fail(registrationNotFound(kind, id));
    if (!(await this.deps.repo.delete(id))) return fail(registrationNotFound(kind, id));
    await this.deps.changes.changed({ change: 'UNREGISTERED', registrationId: id, version: existing.version + 1, changedAtMs: this.deps.clock.now() });
    return ok({ registrationId: id });
  }
}
