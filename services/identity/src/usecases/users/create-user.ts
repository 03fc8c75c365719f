import { randomUUID } from 'node:crypto';
import { conflict, forbidden, validation } from '../../errors.js';
import type { Principal } from '@stormhook/access';
import type { User } from '../../domain/user.js';
import type { Clock } from '../../ports/clock.js';
import type { MessagePublisher } from '../../ports/message-publisher.js';
import type { CredentialRepository, OneTimeTokenRepository, UserRepository } from '../../ports/repositories.js';
import { fail, ok, type Result } from '../../result.js';
import type { PasswordHasher } from '../../security/password-hasher.js';
import { isAdmin } from '../access.js';
import { withParams, type LinkPolicy } from '../links.js';
import { issueOneTimeToken } from '../one-time-tokens.js';
import { userView, type UserView } from '../views.js';
import { parseUserFields, password as passwordField, type UserFieldsInput } from './user-fields.js';

export interface CreateUserInput extends UserFieldsInput {
  /** An initial password: the user is ACTIVE at once. */
  password?: unknown;
  /** Or an invitation: the user is INACTIVE until they set a password with the invitation token. */
  invite?: boolean;
  /** When given, the invitation e-mail is sent with a link to this page (`?userId=..&token=..`). */
  invitationPageLink?: unknown;
}

export interface Invitation {
  /** Single-use; redeemed through the password reset operation (4.18) with the userId. */
  token: string;
  expiresAt: Date;
  /** The page link with userId and token, when a page was given. */
  link?: string;
  /** True when the invitation e-mail request was handed to the notifier. */
  messageSent: boolean;
}

export interface CreatedUser {
  user: UserView;
  invitation?: Invitation;
}

export interface CreateUserPorts {
  users: UserRepository;
  credentials: CredentialRepository;
  oneTimeTokens: OneTimeTokenRepository;
  hasher: PasswordHasher;
  messages: MessagePublisher;
  links: LinkPolicy;
  clock: Clock;
}

export interface CreateUserOptions {
  /** Default 7 days. */
  invitationTtlMs?: number;
}

/** ADMIN creates a user with a role and either an initial password or an invitation. */
export class CreateUser {
  private readonly invitationTtlMs: number;

  constructor(
    private readonly ports: CreateUserPorts,
    options: CreateUserOptions = {},
  ) {
    this.invitationTtlMs = options.invitationTtlMs ?? 7 * 24 * 3600_000;
  }

  async createUser(actor: Principal, input: CreateUserInput): Promise<Result<CreatedUser>> {
    const { ports } = this;
    if (!isAdmin(actor)) return fail(forbidden('Only an ADMIN may create users'));
    const parsed = parseUserFields(input);
    if (!parsed.ok) return parsed;
    const hasPassword = input.password !== undefined && input.password !== null;
    if (hasPassword === (input.invite === true)) return fail(validation('password', 'give either an initial password or invite: true'));
    const pw = hasPassword ? passwordField('password', input.password) : undefined;
    if (pw && !pw.ok) return pw;
    const page =
      input.invitationPageLink === undefined || input.invitationPageLink === null
        ? undefined
        : ports.links.check('invitationPageLink', input.invitationPageLink);
    if (page && !page.ok) return page;
    // The token goes only into the e-mail: an invitation without a page to link to would reach nobody.
    if (!pw && !page) return fail(validation('invitationPageLink', 'is required with invite: true'));

    const now = ports.clock.now();
    const user: User = {
      userId: randomUUID(),
      ...parsed.value,
      status: pw ? 'ACTIVE' : 'INACTIVE',
      emailVerified: false,
      createdAt: now,
      updatedAt: now,
    };
    // Hash before inserting: a slow hash after the insert would leave a password-less user on failure.
    const hash = pw?.ok ? await ports.hasher.hash(pw.value) : undefined;
    if ((await ports.users.insert(user)) === 'duplicate') return fail(conflict(`A user named ${user.username} already exists`));
    if (hash) {
      await ports.credentials.setPasswordHash(user.userId, hash, now);
      return ok({ user: userView(user) });
    }

    const { token, expiresAt } = await issueOneTimeToken(ports.oneTimeTokens, user.userId, 'invitation', this.invitationTtlMs, now);
    const link = page?.ok ? withParams(page.value, { userId: user.userId, token }) : undefined;
    let messageSent = false;
    if (link) {
      await ports.messages.publish({
        messageId: randomUUID(),
        channel: 'email',
        to: user.username,
        template: 'invitation',
        locale: user.locale,
        userId: user.userId,
        params: { link, expiresAt: expiresAt.toISOString(), firstName: user.firstName },
      });
      messageSent = true;
    }
    return ok({ user: userView(user), invitation: { token, expiresAt, ...(link ? { link } : {}), messageSent } });
  }
}
