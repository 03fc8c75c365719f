import { bboxOfRings, type Position } from '@stormhook/geometry';
import { mayListOtherAccounts, owns, seesEveryAccount, type Caller } from '../../domain/caller.js';
import { fail, forbidden, invalid, ok, type Result } from '../../domain/errors.js';
import { areaKeyOf, type AdministrativeBoundary, type ForecastBoundary, type Registration, type RegistrationKind } from '../../domain/registration.js';
import { isUuid, MAX_RECIPIENT_ID_LENGTH } from '../../domain/validate-draft.js';
import { PreparedCircle } from '../../geometry/prepared-circle.js';
import type { RegistrationQuery } from '../../ports/registration-repository.js';
import { registrationNotFound } from './registration-commands.js';
import { suspendedOf, type RegistrationDeps, type RegistrationView } from './registration-deps.js';
import { webhookViews } from './webhook-resolution.js';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;
const MAX_RECIPIENT_FILTER = 100;

export type BoundaryFilter =
  { kind: 'GEOMETRY'; area: AdministrativeBoundary } | { kind: 'FORECAST'; boundary: ForecastBoundary } | { kind: 'POLYGON'; ring: Position[] };

export interface ListRequest {
  kind: RegistrationKind;
  pageNumber: number;
  pageSize: number;
  recipientIds: string[];
  /** '' for none. */
  accountId: string;
  boundary?: BoundaryFilter;
}

export interface RegistrationPage {
  views: RegistrationView[];
  pageNumber: number;
  pageSize: number;
  total: number;
}

function checkPage(pageNumber: number, pageSize: number): Result<void> {
  if (!Number.isInteger(pageNumber) || pageNumber < 0) return fail(invalid('pageNumber', 'must be an integer of at least 0'));
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE)
    return fail(invalid('pageSize', `must be an integer from 1 to ${MAX_PAGE_SIZE}`));
  return ok(undefined);
}

/** Get, list and list-by-recipient. */
export class RegistrationQueries {
  constructor(private readonly deps: Pick<RegistrationDeps, 'repo' | 'webhooks' | 'entitlements'>) {}

  private async views(registrations: Registration[]): Promise<RegistrationView[]> {
    const webhooks = await webhookViews(
      registrations.map((r) => r.accountId),
      this.deps.webhooks,
    );
    return registrations.map((registration) => {
      const view = webhooks.get(registration.accountId) ?? { accountId: registration.accountId };
      const { warning, ...webhook } = view as typeof view & { warning?: string };
      return { registration, webhook, warnings: warning ? [warning] : [], ...suspendedOf(this.deps, registration) };
    });
  }

  async get(caller: Caller, kind: RegistrationKind, registrationId: string): Promise<Result<RegistrationView>> {
    const id = registrationId.trim();
    const found = isUuid(id) ? await this.deps.repo.findById(id) : undefined;
    if (!found || found.kind !== kind || !owns(caller, found.accountId)) return fail(registrationNotFound(kind, id));
    const [view] = await this.views([found]);
    return ok(view!);
  }

  /** Whose registrations a list covers: an explicit accountId (ADMIN, POWER_USER), every account (ADMIN), or the caller's. */
  private scope(caller: Caller, accountId: string): Result<string | undefined | null> {
    if (accountId !== '') {
      if (!isUuid(accountId)) return fail(invalid('accountId', 'must be a UUID'));
      if (accountId !== caller.accountId && !mayListOtherAccounts(caller)) {
        return fail(forbidden('accountId may name another account for ADMIN and POWER_USER callers only'));
      }
      return ok(accountId);
    }
    if (seesEveryAccount(caller)) return ok(undefined);
    // null: the caller has no account, hence no registrations.
    return ok(caller.accountId ?? null);
  }

  async list(caller: Caller, request: ListRequest): Promise<Result<RegistrationPage>> {
    const page = checkPage(request.pageNumber, request.pageSize);
    if (!page.ok) return page;
    if (request.recipientIds.length > MAX_RECIPIENT_FILTER) return fail(invalid('filterByRecipientIds', `may hold at most ${MAX_RECIPIENT_FILTER} ids`));
    const scope = this.scope(caller, request.accountId);
    if (!scope.ok) return scope;
    const empty = { views: [], pageNumber: request.pageNumber, pageSize: request.pageSize, total: 0 };
    if (scope.value === null) return ok(empty);
    const query: RegistrationQuery = {
      kind: request.kind,
      ...(scope.value !== undefined ? { accountId: scope.value } : {}),
      ...(request.recipientIds.length > 0 ? { recipientIds: request.recipientIds } : {}),
    };
    const boundary = request.boundary;
    if (boundary?.kind === 'GEOMETRY') query.areaKey = areaKeyOf({ kind: 'GEOMETRY', area: boundary.area });
    if (boundary?.kind === 'FORECAST') query.areaKey = areaKeyOf({ kind: 'FORECAST', boundary: boundary.boundary });
    if (boundary?.kind === 'POLYGON') {
      const ring = boundary.ring;
      if (ring.length < 4 || ring[0]![0] !== ring[ring.length - 1]![0] || ring[0]![1] !== ring[ring.length - 1]![1]) {
        return fail(invalid('filterByPolygonIntersection', 'must be a closed ring of at least 4 [lng, lat] positions (first equals last)'));
      }
      const polygon = [{ exterior: ring, holes: [] }];
      const box = bboxOfRings([ring]);
      // The circle test runs in memory over the account's point alarms, then the page is cut.
      const touching = (await this.deps.repo.list(query)).filter(
        (r) => r.kind === 'POINT' && new PreparedCircle([r.circle.point.lng, r.circle.point.lat], r.circle.radiusM).intersects(polygon, box),
      );
      const start = request.pageNumber * request.pageSize;
      return ok({ ...empty, views: await this.views(touching.slice(start, start + request.pageSize)), total: touching.length });
    }
    const found = await this.deps.repo.page(query, request.pageNumber, request.pageSize);
    return ok({ ...empty, views: await this.views(found.items), total: found.total });
  }

  async byRecipient(caller: Caller, kind: RegistrationKind, recipientId: string, pageNumber: number, pageSize: number): Promise<Result<RegistrationPage>> {
    const id = recipientId.trim();
    if (id === '' || id.length > MAX_RECIPIENT_ID_LENGTH) return fail(invalid('recipientId', `must be 1 to ${MAX_RECIPIENT_ID_LENGTH} characters`));
    return this.list(caller, { kind, pageNumber, pageSize, recipientIds: [id], accountId: '' });
  }
}
