import { actingPrincipal, GrpcError, GrpcStatus, type HandlersOf, type ServerCall } from '@stormhook/grpc';
import { alarmV1, commonV1, type identityV1 } from '@stormhook/proto';
import { roleOf, type Caller } from '../domain/caller.js';
import { FORECAST_THRESHOLDS } from '../domain/forecast-thresholds.js';
import { DELIVERIES, FORECAST_FILTER_FIELDS, type Delivery, type RegistrationKind } from '../domain/registration.js';
import { latestDueSlot, slotOn } from '../forecast/slots.js';
import type { CallBudget } from '../ports/call-budget.js';
import type { Clock } from '../ports/clock.js';
import type { BacktestCommand } from '../usecases/backtest/backtest-command.js';
import type { ForecastSlotRunner } from '../usecases/live/slot-runner.js';
import type { RegistrationCommands } from '../usecases/registrations/registration-commands.js';
import type { RegistrationView } from '../usecases/registrations/registration-deps.js';
import { DEFAULT_PAGE_SIZE, type BoundaryFilter, type RegistrationPage, type RegistrationQueries } from '../usecases/registrations/registration-queries.js';
import { backtestToProto } from './backtest-proto.js';
import { draftFromProto } from './draft-from-proto.js';
import { badRequest, unauthenticated, unwrap } from './grpc-errors.js';
import { deliveryFromProto, kindFromProto, registrationToProto } from './registration-proto.js';

export interface HandlerDeps {
  commands: RegistrationCommands;
  queries: RegistrationQueries;
  slots: ForecastSlotRunner;
  backtests: BacktestCommand;
  clock: Clock;
}

/**
 * The caller from the verified internal token only; a request whose `principal` names someone else
 * is PERMISSION_DENIED, and a service's own token (no principal) cannot act on registrations.
 */
function callerOf(call: ServerCall, claimed: identityV1.Principal | null | undefined): Caller {
  const principal = actingPrincipal(call, claimed);
  if (!principal?.userId) throw unauthenticated();
  return { userId: principal.userId, role: roleOf(principal.role), ...(principal.accountId ? { accountId: principal.accountId } : {}) };
}

/** The caller's deadline, which the calls made for it share; none when the caller set no deadline. */
function budgetOf(call: ServerCall): CallBudget | undefined {
  return call.deadline ? { deadlineMs: call.deadline.getTime() } : undefined;
}

function kindOf(kind: string): RegistrationKind {
  const found = kindFromProto(kind);
  if (!found) throw badRequest('kind', 'must be GEOMETRY, FORECAST or POINT');
  return found;
}

function viewToProto(view: RegistrationView): alarmV1.AlarmRegistration {
  const registration = registrationToProto(view.registration, view.webhook, view.warnings);
  if (view.suspended) registration.suspended = { reason: view.suspended.reason, sinceEpochMs: view.suspended.sinceMs };
  return registration;
}

function pageToProto(page: RegistrationPage): alarmV1.ListAlarmsResponse {
  return alarmV1.ListAlarmsResponse.create({
    registrations: page.views.map(viewToProto),
    page: { pageNumber: page.pageNumber, pageSize: page.pageSize, totalRecords: page.total },
  });
}

function boundaryFilterOf(request: alarmV1.ListAlarmsRequest): BoundaryFilter | undefined {
  if (request.geometryBoundary) {
    const b = request.geometryBoundary;
    return {
      kind: 'GEOMETRY',
      area: {
        cityId: b.cityId,
        ...(b.districtId !== undefined ? { districtId: b.districtId } : {}),
        ...(b.neighborhoodId !== undefined ? { neighborhoodId: b.neighborhoodId } : {}),
      },
    };
  }
  if (request.forecastBoundary?.administrative) {
    const { cityId, districtId } = request.forecastBoundary.administrative;
    return { kind: 'FORECAST', boundary: { type: 'ADMINISTRATIVE', cityId, districtId } };
  }
  if (request.forecastBoundary?.point) {
    const { lat, lng } = request.forecastBoundary.point;
    return { kind: 'FORECAST', boundary: { type: 'POINT', point: { lat, lng } } };
  }
  if (request.polygonIntersection) {
    return { kind: 'POLYGON', ring: request.polygonIntersection.points.map((p) => [p.lng, p.lat] as const) };
  }
  return undefined;
}

function thresholdTable(): alarmV1.ListForecastThresholdsResponse {
  return alarmV1.ListForecastThresholdsResponse.create({
    thresholds: FORECAST_FILTER_FIELDS.flatMap((field) => {
      const scale = FORECAST_THRESHOLDS[field];
      return scale.values.map(([name, value]) => ({
        filterField: field,
        name,
        metric: scale.metric,
        unit: scale.unit,
        value,
        comparison: scale.comparison,
        aggregation: scale.aggregation,
      }));
    }),
  });
}

/** stormhook.alarm.v1.AlarmMatcherService: translates, calls a use case, translates back. */
export function alarmMatcherHandlers(deps: HandlerDeps): HandlersOf<typeof alarmV1.AlarmMatcherService> {
  return {
    async registerAlarm(request, call) {
      const caller = callerOf(call, request.principal);
      const kind = kindOf(request.kind);
      return viewToProto(unwrap(await deps.commands.register(caller, draftFromProto(kind, request.registration), budgetOf(call))));
    },

    async updateAlarm(request, call) {
      const caller = callerOf(call, request.principal);
      const kind = kindOf(request.kind);
      return viewToProto(unwrap(await deps.commands.update(caller, draftFromProto(kind, request.registration), budgetOf(call))));
    },

    async unregisterAlarm(request, call) {
      const caller = callerOf(call, request.principal);
      const kind = kindOf(request.kind);
      const removed = unwrap(await deps.commands.unregister(caller, kind, request.registrationId));
      return alarmV1.UnregisterAlarmResponse.create({ registrationId: removed.registrationId });
    },

    async getAlarm(request, call) {
      const caller = callerOf(call, request.principal);
      const kind = kindOf(request.kind);
      return viewToProto(unwrap(await deps.queries.get(caller, kind, request.registrationId)));
    },

    async listAlarms(request, call) {
      const caller = callerOf(call, request.principal);
      const kind = kindOf(request.kind);
      const filter = boundaryFilterOf(request);
      const page = await deps.queries.list(caller, {
        kind,
        pageNumber: request.page?.pageNumber ?? 0,
        pageSize: request.page?.pageSize ?? DEFAULT_PAGE_SIZE,
        recipientIds: request.recipientIds.map((id) => id.trim()).filter((id) => id !== ''),
        accountId: request.accountId.trim(),
        ...(filter ? { boundary: filter } : {}),
      });
      return pageToProto(unwrap(page));
    },

    async listAlarmsByRecipient(request, call) {
      const caller = callerOf(call, request.principal);
      const kind = kindOf(request.kind);
      const page = await deps.queries.byRecipient(
        caller,
        kind,
        request.recipientId,
        request.page?.pageNumber ?? 0,
        request.page?.pageSize ?? DEFAULT_PAGE_SIZE,
      );
      return pageToProto(unwrap(page));
    },

    async listForecastThresholds() {
      return thresholdTable();
    },

    async runForecastSlot(request, call) {
      const caller = callerOf(call, request.principal);
      if (caller.role !== 'ADMIN') {
        const message = 'Running a forecast slot is an operator action (ADMIN only)';
        throw new GrpcError(
          GrpcStatus.PERMISSION_DENIED,
          message,
          commonV1.ErrorDetail.create({ reason: 'FORBIDDEN', message, messages: [message], httpStatus: 403 }),
        );
      }
      const delivery = deliveryFromProto(request.delivery);
      if (!(DELIVERIES as readonly string[]).includes(delivery)) throw badRequest('delivery', 'must be MORNING or EVENING');
      const slot = request.dayEpochMs > 0 ? slotOn(delivery as Delivery, request.dayEpochMs) : latestDueSlot(delivery as Delivery, deps.clock.now());
      const outcome = await deps.slots.run(slot, { rerun: request.rerun });
      return alarmV1.RunForecastSlotResponse.create({
        slotId: outcome.slotId,
        evaluated: outcome.evaluated,
        late: outcome.late,
        registrations: outcome.registrations,
        notifications: outcome.notifications,
        forecastRunId: outcome.forecastRunId ?? '',
      });
    },

    async backtestAlarm(request, call) {
      const caller = callerOf(call, request.principal);
      const kind = kindOf(request.kind);
      const window = { fromMs: request.fromEpochMs, toMs: request.toEpochMs };
      const outcome = await deps.backtests.run(caller, draftFromProto(kind, request.registration), window, budgetOf(call));
      return backtestToProto(unwrap(outcome));
    },
  };
}
