import { forbidden, notFound, validation } from '../../errors.js';
import { parseBracketList } from '../../domain/bracket-filter.js';
import { uuid } from '../../domain/fields.js';
import { type Principal, ROLES } from '@stormhook/access';
import { USER_STATUSES } from '../../domain/user.js';
import { USER_SORT_FIELDS, type AccountRepository, type UserPageQuery, type UserRepository, type UserSortField } from '../../ports/repositories.js';
import { fail, ok, type Result } from '../../result.js';
import { isAdmin, mayRead } from '../access.js';
import { userView, type UserView } from '../views.js';

/** interface.md 4.16. */
export interface UserPageInput {
  roles?: unknown;
  status?: unknown;
  sortBy?: unknown;
  pageNumber?: unknown;
  pageSize?: unknown;
  includeAccount?: unknown;
}

export interface UserPage {
  users: UserView[];
  totalRecords: number;
  pageNumber: number;
  pageSize: number;
}

export interface UserQueryPorts {
  users: UserRepository;
  accounts: AccountRepository;
}

/** Contract names (2.10) to stored names; `roles` is how the contract spells the role field. */
const SORT_ALIASES: Readonly<Record<string, UserSortField>> = { roles: 'role' };

export function parseSortBy(raw: unknown): Result<UserPageQuery['sort']> {
  if (raw === undefined || raw === null) return ok([['username', 'asc']]);
  if (typeof raw !== 'object' || Array.isArray(raw)) return fail(validation('sortBy', 'must be a map of field name to asc or desc'));
  const sort: Array<readonly [UserSortField, 'asc' | 'desc']> = [];
  for (const [name, direction] of Object.entries(raw)) {
    const field = SORT_ALIASES[name] ?? (USER_SORT_FIELDS as readonly string[]).find((f) => f === name);
    if (field === undefined) return fail(validation(`sortBy.${name}`, `unknown field; sortable fields are ${[...USER_SORT_FIELDS, 'roles'].join(', ')}`));
    const dir = typeof direction === 'string' ? direction.toLowerCase() : direction;
    if (dir !== 'asc' && dir !== 'desc') return fail(validation(`sortBy.${name}`, 'must be asc or desc'));
    if (!sort.some(([f]) => f === field)) sort.push([field as UserSortField, dir]);
  }
  return ok(sort.length > 0 ? sort : [['username', 'asc']]);
}

function integer(field: string, raw: unknown, fallback: number, min: number, max: number): Result<number> {
  const value = raw ?? fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    return fail(validation(field, `must be an integer from ${min} to ${max}`));
  }
  return ok(value);
}

/** Reading users: oneself, one user (POWER_USER and above), and the ADMIN's paged list. */
export class UserQueries {
  constructor(private readonly ports: UserQueryPorts) {}

  /** The caller with their account (the account id is how a caller later reuses its webhook). */
  async getMe(actor: Principal): Promise<Result<UserView>> {
    const user = await this.ports.users.findById(actor.userId);
    if (!user) return fail(notFound('user'));
    return ok(userView(user, await this.ports.accounts.findByUserId(user.userId)));
  }

  async getUser(actor: Principal, userIdRaw: unknown): Promise<Result<UserView>> {
    const userId = uuid('userId', userIdRaw);
    if (!userId.ok) return userId;
    if (!mayRead(actor, userId.value)) return fail(forbidden('Reading other users needs role POWER_USER or above'));
    const user = await this.ports.users.findById(userId.value);
    if (!user) return fail(notFound('user'));
    return ok(userView(user, await this.ports.accounts.findByUserId(user.userId)));
  }

  async pageUsers(actor: Principal, input: UserPageInput): Promise<Result<UserPage>> {
    if (!isAdmin(actor)) return fail(forbidden('Listing users needs role ADMIN'));
    const roles = parseBracketList('roles', input.roles, ROLES);
    if (!roles.ok) return roles;
    const statuses = parseBracketList('status', input.status, USER_STATUSES);
    if (!statuses.ok) return statuses;
    const sort = parseSortBy(input.sortBy);
    if (!sort.ok) return sort;
    const pageNumber = integer('pageNumber', input.pageNumber, 0, 0, 1_000_000);
    if (!pageNumber.ok) return pageNumber;
    const pageSize = integer('pageSize', input.pageSize, 20, 1, 100);
    if (!pageSize.ok) return pageSize;
    if (input.includeAccount !== undefined && typeof input.includeAccount !== 'boolean') {
      return fail(validation('includeAccount', 'must be true or false'));
    }

    const { users, total } = await this.ports.users.page({
      roles: roles.value,
      statuses: statuses.value,
      sort: sort.value,
      skip: pageNumber.value * pageSize.value,
      limit: pageSize.value,
    });
    const accounts = input.includeAccount === true ? await this.ports.accounts.findByUserIds(users.map((u) => u.userId)) : [];
    const byUser = new Map(accounts.map((account) => [account.userId, account]));
    return ok({
      users: users.map((user) => userView(user, byUser.get(user.userId))),
      totalRecords: total,
      pageNumber: pageNumber.value,
      pageSize: pageSize.value,
    });
  }
}
