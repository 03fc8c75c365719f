import { randomUUID } from 'node:crypto';
import { conflict, expired, notFound, rateLimited, validation } from '../../errors.js';
import { uuid } from '../../domain/fields.js';
import type { Principal } from '@stormhook/access';
import type { Clock } from '../../ports/clock.js';
import type { MessagePublisher } from '../../ports/message-publisher.js';
import type { AccountRepository, UserRepository } from '../../ports/repositories.js';
import { fail, ok, type Result } from '../../result.js';
import { constantTimeEqual, hmacSha256, numericCode, randomToken } from '../../security/secrets.js';
import { mayWrite } from '../access.js';
import type { AttemptLimiter, AttemptPolicy } from '../auth/attempt-limiter.js';
import { withParams, type LinkPolicy } from '../links.js';
import { accountView, type AccountView } from '../views.js';

/** interface.md 4.15. */
export interface PhoneActivationRequestInput {
  userId: unknown;
  accountId: unknown;
  phoneNumberActivationPageLink: unknown;
}

export interface PhoneActivationRequested {
  userId: string;
  accountId: string;
  recipientPhoneNumber: string;
  /** Epoch milliseconds. */
  tokenExpirationEpoch: number;
  smsSent: boolean;
}

export interface PhoneActivationInput {
  accountId: unknown;
  code: unknown;
}

export interface PhoneActivationPorts {
  users: UserRepository;
  accounts: AccountRepository;
  messages: MessagePublisher;
  links: LinkPolicy;
  limiter: AttemptLimiter;
  clock: Clock;
}

export interface PhoneActivationOptions {
  /** Default 10 minutes. */
  codeTtlMs?: number;
  /** Wrong codes allowed per sent code; default 5 (a 6-digit code then falls to guessing with p = 5e-6). */
  maxAttempts?: number;
  /** SMS per account; default 5 per hour (SMS cost money and annoy people). */
  perAccount?: AttemptPolicy;
}

const CODE_DIGITS = 6;

function codeHash(salt: string, accountId: string, phoneNumber: string, code: string): string {
  return hmacSha256(salt, `${accountId}|${phoneNumber}|${code}`);
}

/** Verifies the account's mobile number with a numeric code sent by SMS. */
export class PhoneActivation {
  private readonly codeTtlMs: number;
  private readonly maxAttempts: number;
  private readonly perAccount: AttemptPolicy;

  constructor(
    private readonly ports: PhoneActivationPorts,
    options: PhoneActivationOptions = {},
  ) {
    this.codeTtlMs = options.codeTtlMs ?? 10 * 60_000;
    this.maxAttempts = options.maxAttempts ?? 5;
    this.perAccount = options.perAccount ?? { limit: 5, windowMs: 3600_000 };
  }

  async requestActivation(actor: Principal, input: PhoneActivationRequestInput): Promise<Result<PhoneActivationRequested>> {
    const { ports } = this;
    const userId = uuid('userId', input.userId);
    if (!userId.ok) return userId;
    const accountId = uuid('accountId', input.accountId);
    if (!accountId.ok) return accountId;
    const page = ports.links.check('phoneNumberActivationPageLink', input.phoneNumberActivationPageLink);
    if (!page.ok) return page;

    const account = await ports.accounts.findById(accountId.value);
    if (!account || account.userId !== userId.value || !mayWrite(actor, account.userId)) return fail(notFound('account'));
    const phoneNumber = account.mobilePhoneNumber;
    if (phoneNumber === undefined) return fail(validation('mobilePhoneNumber', 'the account has no mobile phone number; set one with an account update'));
    if (account.mobilePhoneNumberVerified) return fail(conflict('The mobile phone number is already verified'));

    const now = ports.clock.now();
    const subjects = [{ scope: 'phone-activation', subject: account.id, policy: this.perAccount }];
    const attempt = await ports.limiter.attempt(subjects, now);
    if (attempt.limited) return fail(rateLimited(attempt.retryAfterSeconds, 'Too many activation codes requested, try again later'));

    const code = numericCode(CODE_DIGITS);
    const salt = randomToken(16);
    const expiresAt = new Date(now.getTime() + this.codeTtlMs);
    const started = await ports.accounts.startPhoneActivation(
      account.id,
      { phoneNumber, codeHash: codeHash(salt, account.id, phoneNumber, code), salt, expiresAt },
      now,
    );
    if (!started) return fail(notFound('account'));

    const user = await ports.users.findById(account.userId);
    let smsSent = true;
    try {
      await ports.messages.publish({
        messageId: randomUUID(),
        channel: 'sms',
        to: phoneNumber,
        template: 'phone-activation',
        locale: user?.locale ?? 'tr_TR',
        userId: account.userId,
        accountId: account.id,
        params: { code, link: withParams(page.value, { accountId: account.id }), expiresAt: expiresAt.toISOString() },
      });
    } catch {
      // The contract has a field for exactly this: the caller sees smsSent false and may ask again.
      smsSent = false;
    }
    return ok({ userId: account.userId, accountId: account.id, recipientPhoneNumber: phoneNumber, tokenExpirationEpoch: expiresAt.getTime(), smsSent });
  }

  async activate(actor: Principal, input: PhoneActivationInput): Promise<Result<AccountView>> {
    const { ports } = this;
    const accountId = uuid('accountId', input.accountId);
    if (!accountId.ok) return accountId;
    const code = typeof input.code === 'number' ? String(input.code).padStart(CODE_DIGITS, '0') : input.code;
    if (typeof code !== 'string' || !new RegExp(`^[0-9]{${CODE_DIGITS}}$`).test(code)) {
      return fail(validation('code', `must be the ${CODE_DIGITS}-digit code from the SMS`));
    }
    const account = await ports.accounts.findById(accountId.value);
    if (!account || !mayWrite(actor, account.userId)) return fail(notFound('account'));
    const now = ports.clock.now();
    const pending = account.phoneActivation;
    if (!pending || pending.phoneNumber !== account.mobilePhoneNumber) return fail(expired('No phone activation is pending; request a new code'));
    if (pending.expiresAt.getTime() <= now.getTime()) return fail(expired('The activation code has expired; request a new code'));

    // Counted before comparing (see AttemptLimiter), so parallel guesses cannot exceed the limit.
    const guesses = [{ scope: 'phone-code', subject: `${account.id}:${pending.salt}`, policy: { limit: this.maxAttempts, windowMs: this.codeTtlMs } }];
    const attempt = await ports.limiter.attempt(guesses, now);
    if (attempt.limited) return fail(expired('Too many wrong codes; request a new code'));
    if (!constantTimeEqual(codeHash(pending.salt, account.id, pending.phoneNumber, code), pending.codeHash)) {
      const left = attempt.ticket.remaining[0] ?? 0;
      return fail(validation('code', left > 0 ? `The code is not correct; ${left} attempt(s) left` : 'The code is not correct; request a new code'));
    }
    const done = await ports.accounts.completePhoneActivation(account.id, pending.phoneNumber, now);
    if (!done) return fail(expired('The phone number changed meanwhile; request a new code'));
    return ok(accountView(done, await ports.users.findById(done.userId)));
  }
}
