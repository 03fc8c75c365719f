import type { Request, Response } from 'express';
import { ApiError } from '@stormhook/errors';
import { GrpcError, GrpcStatus, type GrpcClient } from '@stormhook/grpc';
import { alarmV1, enumValue, type identityV1, type notificationV1 } from '@stormhook/proto';
import { accessOf, principalOf } from '../http/auth-state.js';
import { validatedBody, validatedParams, validatedQuery } from '../http/validated-input.js';
import { ALARM_OPERATIONS } from '../routes/alarms.js';
import type { Handlers } from '../routes/mount.js';
import { RecipientIdParams, RecipientPageQuery, RegistrationIdParams, RunForecastSlotRequest, alarmSchemas, type AlarmKind } from '../schemas/alarms.js';
import {
  KIND_OF_ROUTE,
  backtestRequest,
  listRequest,
  recipientPage,
  registrationInput,
  type KindBacktest,
  type KindInput,
  type KindOperation,
  type KindPage,
  type KindRegistration,
} from './alarms-input.js';
import { pageJson, registrationJson, slotJson, thresholdsJson } from './alarms-json.js';
import { backtestJson } from './backtest-json.js';
import { toEndpointConfig, type PublicWebhookInput } from './webhook-mapping.js';
import { ownAccountId, type AccountLookup } from './webhooks-account.js';
import type { NotifierClient } from './webhooks.js';

export type AlarmMatcherClient = GrpcClient<typeof alarmV1.AlarmMatcherService>;

export interface AlarmHandlerDeps {
  alarms: AlarmMatcherClient;
  /** Finds the caller's account when the token predates it. */
  identity: AccountLookup;
  /** Reads the stored webhook's authentication type, which responses never show (see webhookConfigOf). */
  notifier: Pick<NotifierClient, 'getWebhookEndpoint'>;
}

/** The public webhook fields that make up a complete configuration (everything but accountId). */
const CONFIG_FIELDS = ['url', 'httpMethod', 'contentType', 'authentication', 'requestHeaders', 'deliveryPolicy'] as const;

/** Registrations show the stored webhook (masked): keep them out of shared caches like the webhook itself. */
const noStore = (res: Response): Response => res.set('Cache-Control', 'no-store');

/**
 * The caller as the matcher needs it: with the account, which a token issued before the account
 * existed does not name. ADMIN acts on every account and may have none of its own; registering
 * still needs one, and the matcher says so.
 */
async function callerOf(req: Request, identity: AccountLookup): Promise<identityV1.Principal> {
  const principal = principalOf(req);
  if (principal.accountId) return principal;
  const granted = accessOf(req)?.accountId;
  if (granted) return { ...principal, accountId: granted };
  try {
    return { ...principal, accountId: await ownAccountId(principal, identity) };
  } catch (error) {
    if (principal.role === 'ADMIN' && error instanceof ApiError && error.status === 403) return principal;
    throw error;
  }
}

/**
 * The body of an alarm operation, read with the schema of its kind; kind and body stay together for the
 * mapping. The overloads say which schemas `operation` picks (each branch reads `alarmSchemas[kind][operation]`).
 */
function kindInput(req: Request, kind: AlarmKind, operation: 'registerRequest' | 'updateRequest'): KindRegistration;
function kindInput(req: Request, kind: AlarmKind, operation: 'pageRequest'): KindPage;
function kindInput(req: Request, kind: AlarmKind, operation: 'backtestRequest'): KindBacktest;
function kindInput(req: Request, kind: AlarmKind, operation: KindOperation): KindInput<KindOperation> {
  switch (kind) {
    case 'geometries':
      return { kind, body: validatedBody(req, alarmSchemas.geometries[operation]) };
    case 'forecasts':
      return { kind, body: validatedBody(req, alarmSchemas.forecasts[operation]) };
    case 'points':
      return { kind, body: validatedBody(req, alarmSchemas.points[operation]) };
  }
}

export function alarmHandlers({ alarms, identity, notifier }: AlarmHandlerDeps): Handlers {
  /**
   * Responses never show authentication.type, so a client sending back a webhook it read (the
   * usual read-modify-PUT of a registration) sends none: the stored type is used, as the webhook
   * update does. Only the caller's own account is read, or for ADMIN the account named.
   */
  async function storedAuthType(webhook: PublicWebhookInput, caller: identityV1.Principal): Promise<notificationV1.WebhookAuthType | undefined> {
    if (!webhook.authentication || webhook.authentication.type) return undefined;
    const named = webhook.accountId ?? '';
    const accountId = named !== '' && (caller.role === 'ADMIN' || named === caller.accountId) ? named : caller.accountId;
    if (!accountId) return undefined;
    try {
      return (await notifier.getWebhookEndpoint({ accountId })).endpoint?.config?.authentication?.type;
    } catch (error) {
      if (error instanceof GrpcError && error.code === GrpcStatus.NOT_FOUND) return undefined;
      throw error;
    }
  }

  /**
   * The complete webhook as the notifier's configuration, or undefined when the request only names
   * the stored one by accountId (contract section 3, rule 2). Configuration fields without url are
   * refused rather than silently dropped: the caller meant to change something.
   */
  async function webhookConfigOf(webhook: PublicWebhookInput, caller: identityV1.Principal): Promise<notificationV1.WebhookEndpointConfig | undefined> {
    if (webhook.url === undefined) {
      const sent = CONFIG_FIELDS.filter((field) => webhook[field] !== undefined);
      if (sent.length === 0) return undefined;
      const message =
        `webhook.url is required with ${sent.map((f) => `webhook.${f}`).join(', ')}: send the complete webhook, or only ` +
        'webhook.accountId to reuse the stored one (change it with PUT /v1/alarms/webhooks/update)';
      throw new ApiError(400, message, [message]);
    }
    const mapped = toEndpointConfig(webhook, { storedAuthType: await storedAuthType(webhook, caller) });
    if (!mapped.ok) throw new ApiError(400, mapped.message, [mapped.message]);
    return mapped.value;
  }

  function kindHandlers(kind: AlarmKind): Handlers {
    const names = ALARM_OPERATIONS[kind];
    const protoKind = KIND_OF_ROUTE[kind];
    const write = (method: 'registerAlarm' | 'updateAlarm') => async (req: Request, res: Response) => {
      const principal = await callerOf(req, identity);
      const sent = kindInput(req, kind, method === 'registerAlarm' ? 'registerRequest' : 'updateRequest');
      const registration = registrationInput(sent, await webhookConfigOf(sent.body.webhook, principal));
      const saved = await alarms[method]({ principal, kind: protoKind, registration });
      noStore(res).json(registrationJson(kind, saved, principal.accountId));
    };
    const registrationId = (req: Request): string => validatedParams(req, RegistrationIdParams).registrationId;
    return {
      [names.register]: write('registerAlarm'),
      [names.update]: write('updateAlarm'),
      [names.unregister]: async (req: Request, res: Response) => {
        const principal = await callerOf(req, identity);
        await alarms.unregisterAlarm({ principal, kind: protoKind, registrationId: registrationId(req) });
        res.status(204).end();
      },
      [names.getById]: async (req: Request, res: Response) => {
        const principal = await callerOf(req, identity);
        const found = await alarms.getAlarm({ principal, kind: protoKind, registrationId: registrationId(req) });
        noStore(res).json(registrationJson(kind, found, principal.accountId));
      },
      [names.page]: async (req: Request, res: Response) => {
        const principal = await callerOf(req, identity);
        const page = await alarms.listAlarms(listRequest(kindInput(req, kind, 'pageRequest'), principal));
        noStore(res).json(pageJson(kind, page, principal.accountId));
      },
      // Nothing stored, delivered or read from the notifier: the answer is what the draft would have sent.
      [names.backtest]: async (req: Request, res: Response) => {
        const principal = await callerOf(req, identity);
        const outcome = await alarms.backtestAlarm(backtestRequest(kindInput(req, kind, 'backtestRequest'), principal));
        res.json(backtestJson(outcome));
      },
      [names.byRecipient]: async (req: Request, res: Response) => {
        const principal = await callerOf(req, identity);
        const page = await alarms.listAlarmsByRecipient({
          principal,
          kind: protoKind,
          recipientId: validatedParams(req, RecipientIdParams).recipientId,
          page: recipientPage(validatedQuery(req, RecipientPageQuery)),
        });
        noStore(res).json(pageJson(kind, page, principal.accountId));
      },
    };
  }

  return {
    ...kindHandlers('geometries'),
    ...kindHandlers('forecasts'),
    ...kindHandlers('points'),
    listForecastThresholds: async (_req, res) => {
      res.json(thresholdsJson(await alarms.listForecastThresholds({})));
    },
    runForecastSlot: async (req, res) => {
      const body = validatedBody(req, RunForecastSlotRequest);
      // Noon of the UTC day: any instant of the day names its slot, and 0 would mean "the latest due".
      const dayEpochMs = body.date ? Date.parse(`${body.date}T12:00:00Z`) : 0;
      const outcome = await alarms.runForecastSlot({
        principal: principalOf(req),
        delivery: enumValue(alarmV1.ForecastDelivery, body.delivery),
        dayEpochMs,
        rerun: body.rerun === true,
      });
      res.json(slotJson(outcome));
    },
  };
}
