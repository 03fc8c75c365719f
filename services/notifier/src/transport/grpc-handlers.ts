import { GrpcError, GrpcStatus, type HandlersOf, type ServerCall } from '@stormhook/grpc';
import { notificationV1 } from '@stormhook/proto';
import { fail, validation, type Result } from '../domain/notifier-error.js';
import type { Clock } from '../ports/clock.js';
import type { DeliveryLog } from '../usecases/delivery-log.js';
import type { EndpointUseCases } from '../usecases/endpoint-usecases.js';
import type { WebhookHealth } from '../usecases/webhook-health.js';
import { failureClassFilter } from './failure-class-mapping.js';
import { webhookHealthMessage } from './health-mapping.js';
import { dryRunMessage, recoveryJobMessage, recoveryModeOf, startedMessage } from './recovery-mapping.js';
import type { RecoverDeliveries, RecoveryRequest } from '../usecases/recover-deliveries.js';
import { translateFailure, unwrap } from './errors.js';
import { configInput, deliveryMessage, endpointMessage, signingSecretMessage, statusFilter } from './mapping.js';

export interface NotifierHandlerDeps {
  endpoints: EndpointUseCases;
  deliveries: DeliveryLog;
  webhookHealth: WebhookHealth;
  recoveries: RecoverDeliveries;
  clock: Clock;
}

/** Page used when a list request carries none (the HTTP contract's default page size). */
export const DEFAULT_PAGE = { pageNumber: 0, pageSize: 20 } as const;

/**
 * Whether the verified caller may act on `accountId`. A customer's token (signed by the gateway)
 * allows their own account, or any for ADMIN; a service's own token (the alarm-matcher storing a
 * registration's webhook) names the account it works for. A token without an account id is a
 * credential issued before its account existed: the gateway resolved the account through identity.
 */
function requireAccountAccess(call: ServerCall, accountId: string): void {
  const principal = call.caller?.principal;
  if (!principal || principal.role === 'ADMIN' || !principal.accountId || principal.accountId === accountId) return;
  throw new GrpcError(GrpcStatus.PERMISSION_DENIED, 'the request names another account than its internal token');
}

/**
 * Runs one use case for the account named in the request. The account id comes from the gateway's
 * authenticated principal, never from the request body, so an empty one is a gateway bug; it still
 * answers a 400 rather than touching an unnamed account.
 */
async function forAccount<T>(call: ServerCall, accountId: string, run: (accountId: string) => Promise<Result<T>>): Promise<T> {
  if (!accountId.trim()) return unwrap<T>(fail(validation('accountId', 'is required')));
  requireAccountAccess(call, accountId);
  try {
    return unwrap(await run(accountId));
  } catch (error) {
    throw translateFailure(error);
  }
}

const optionalDate = (epochMs: number): Date | undefined => (epochMs > 0 ? new Date(epochMs) : undefined);

/** The recovery a request asks for; `until` defaults to now. */
function recoveryInput(request: notificationV1.RecoverDeliveriesRequest, now: Date): Result<RecoveryRequest> {
  const mode = recoveryModeOf(request.mode);
  if (!mode) return fail(validation('mode', 'must be failed, all or latest-state'));
  const since = Number(request.sinceEpochMs);
  if (since <= 0) return fail(validation('since', 'is required, in epoch milliseconds'));
  const until = Number(request.untilEpochMs);
  return { ok: true, value: { mode, since: new Date(since), until: until > 0 ? new Date(until) : now } };
}

/** Every rpc of NotifierService: translate, call one use case, map its failure to a status. */
export function notifierHandlers(deps: NotifierHandlerDeps): HandlersOf<typeof notificationV1.NotifierService> {
  const { endpoints, deliveries, webhookHealth, recoveries, clock } = deps;
  const endpointResponse = (endpoint: Parameters<typeof endpointMessage>[0]) =>
    notificationV1.WebhookEndpointResponse.create({ endpoint: endpointMessage(endpoint, clock.now()) });
  const deliveryResponse = (delivery: Parameters<typeof deliveryMessage>[0]) => notificationV1.DeliveryResponse.create({ delivery: deliveryMessage(delivery) });

  return {
    async createWebhookEndpoint(request, call) {
      const created = await forAccount(call, request.accountId, (id) => endpoints.create(id, configInput(request.config), request.ownerEmail || undefined));
      return notificationV1.CreateWebhookEndpointResponse.create({
        endpoint: endpointMessage(created.endpoint, clock.now()),
        signingSecret: created.signingSecret,
      });
    },
    async getWebhookEndpoint(request, call) {
      return endpointResponse(await forAccount(call, request.accountId, (id) => endpoints.get(id)));
    },
    async updateWebhookEndpoint(request, call) {
      return endpointResponse(
        await forAccount(call, request.accountId, (id) => endpoints.update(id, configInput(request.config), request.ownerEmail || undefined)),
      );
    },
    async rotateSigningSecret(request, call) {
      return signingSecretMessage(
        await forAccount(call, request.accountId, (id) => endpoints.rotateSecret(id, Number(request.previousSecretValidMs) || undefined)),
      );
    },
    async getSigningSecret(request, call) {
      return signingSecretMessage(await forAccount(call, request.accountId, (id) => endpoints.signingSecrets(id)));
    },
    async enableWebhookEndpoint(request, call) {
      return endpointResponse(await forAccount(call, request.accountId, (id) => endpoints.enable(id)));
    },
    async listDeliveries(request, call) {
      const page = request.page ?? DEFAULT_PAGE;
      const listed = await forAccount(call, request.accountId, (id) =>
        deliveries.list(id, {
          registrationId: request.registrationId || undefined,
          status: statusFilter(request.status),
          from: optionalDate(Number(request.fromEpochMs)),
          to: optionalDate(Number(request.toEpochMs)),
          failureClass: failureClassFilter(request.failureClass),
          callbackType: request.callbackType || undefined,
          cursor: request.cursor || undefined,
          pageNumber: page.pageNumber,
          pageSize: page.pageSize,
        }),
      );
      return notificationV1.ListDeliveriesResponse.create({
        deliveries: listed.items.map(deliveryMessage),
        page: { pageNumber: page.pageNumber, pageSize: page.pageSize, totalRecords: listed.total },
        nextCursor: listed.nextCursor ?? '',
      });
    },
    async getDelivery(request, call) {
      return deliveryResponse(await forAccount(call, request.accountId, (id) => deliveries.get(id, request.notificationId)));
    },
    async redeliver(request, call) {
      return deliveryResponse(await forAccount(call, request.accountId, (id) => deliveries.redeliver(id, request.notificationId)));
    },
    async sendTestDelivery(request, call) {
      return deliveryResponse(await forAccount(call, request.accountId, (id) => deliveries.sendTest(id)));
    },
    async getWebhookHealth(request, call) {
      return webhookHealthMessage(await forAccount(call, request.accountId, (id) => webhookHealth.get(id)));
    },
    async recoverDeliveries(request, call) {
      const input = recoveryInput(request, clock.now());
      if (request.dryRun)
        return dryRunMessage(await forAccount(call, request.accountId, async (id) => (input.ok ? recoveries.dryRun(id, input.value) : input)));
      return startedMessage(await forAccount(call, request.accountId, async (id) => (input.ok ? recoveries.start(id, input.value) : input)));
    },
    async getRecoveryJob(request, call) {
      return recoveryJobMessage(await forAccount(call, request.accountId, (id) => recoveries.get(id, request.jobId)));
    },
  };
}
