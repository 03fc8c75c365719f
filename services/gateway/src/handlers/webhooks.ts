import type { Request, Response } from 'express';
import { ApiError } from '@stormhook/errors';
import type { GrpcClient } from '@stormhook/grpc';
import type { notificationV1 } from '@stormhook/proto';
import { principalOf } from '../http/auth-state.js';
import { validatedInput } from '../http/request-state.js';
import { validatedBody, validatedParams, validatedQuery } from '../http/validated-input.js';
import type { Handlers } from '../routes/mount.js';
import { RotateSecretQuery, WebhookUpdateRequest } from '../schemas/webhook.js';
import { RecoverRequest, RecoveryJobParams } from '../schemas/webhook-recovery.js';
import { RECOVERY_MODE_VALUES, recoverAnswerJson, recoveryJobJson } from './webhook-recovery-json.js';
import { deliveryJson } from './deliveries-json.js';
import { toEndpointConfig } from './webhook-mapping.js';
import { maskedFieldOf } from './webhook-masking.js';
import { targetAccountId, type AccountLookup } from './webhooks-account.js';
import { signingSecretsJson, storedWebhookJson } from './webhooks-json.js';
import { webhookHealthJson } from './webhook-health-json.js';

export type NotifierClient = GrpcClient<typeof notificationV1.NotifierService>;

export interface WebhookHandlerDeps {
  notifier: NotifierClient;
  /** Finds the caller's account when the token predates it. */
  identity: AccountLookup;
}

/** Secrets (and the endpoint configuration) must not sit in shared caches. */
const noStore = (res: Response): Response => res.set('Cache-Control', 'no-store');

/**
 * The caller's own account, as far as masking needs it: the token's, or (a token from before the
 * account existed) the target when the caller named none, which targetAccountId resolved to its own.
 */
function viewerAccountId(req: Request, target: string): string | undefined {
  const own = principalOf(req).accountId;
  if (own) return own;
  const named = validatedInput(req).query['accountId'];
  return typeof named === 'string' && named !== '' ? undefined : target;
}

/**
 * The account's stored webhook (interface.md 2.2, section 3 rule 4) over the notifier: read, change,
 * signing secrets, re-enable after an automatic disable, and a test delivery.
 */
export function webhookHandlers({ notifier, identity }: WebhookHandlerDeps): Handlers {
  return {
    getWebhook: async (req, res) => {
      const accountId = await targetAccountId(req, identity);
      const { endpoint } = await notifier.getWebhookEndpoint({ accountId });
      noStore(res).json(storedWebhookJson(endpoint, viewerAccountId(req, accountId)));
    },
    updateWebhook: async (req, res) => {
      const accountId = await targetAccountId(req, identity);
      const principal = principalOf(req);
      const webhook = validatedBody(req, WebhookUpdateRequest);
      if (webhook.accountId !== undefined && webhook.accountId !== accountId) {
        throw new ApiError(400, 'webhook.accountId must be the account whose webhook is changed, or left out');
      }
      const viewer = viewerAccountId(req, accountId);
      const masked = accountId === viewer ? undefined : maskedFieldOf(webhook);
      if (masked) {
        const message = `webhook.${masked} is masked as another account reads it: send the value in full`;
        throw new ApiError(400, message, [message]);
      }
      // Responses never show the type, so a client sending back what it read keeps the stored one.
      const storedAuthType =
        webhook.authentication && !webhook.authentication.type
          ? (await notifier.getWebhookEndpoint({ accountId })).endpoint?.config?.authentication?.type
          : undefined;
      const config = toEndpointConfig(webhook, { storedAuthType });
      if (!config.ok) throw new ApiError(400, config.message, [config.message]);
      // The owner is told by e-mail when the endpoint gets disabled; an ADMIN editing another account keeps the stored address.
      const ownerEmail = accountId === principal.accountId ? principal.username : '';
      const { endpoint } = await notifier.updateWebhookEndpoint({ accountId, config: config.value, ownerEmail });
      noStore(res).json(storedWebhookJson(endpoint, viewer));
    },
    rotateWebhookSigningSecret: async (req, res) => {
      const accountId = await targetAccountId(req, identity);
      const seconds = validatedQuery(req, RotateSecretQuery).previousSecretValidSeconds ?? 0;
      const secrets = await notifier.rotateSigningSecret({ accountId, previousSecretValidMs: seconds * 1000 });
      noStore(res).json(signingSecretsJson(secrets));
    },
    getWebhookSigningSecret: async (req, res) => {
      const accountId = await targetAccountId(req, identity);
      noStore(res).json(signingSecretsJson(await notifier.getSigningSecret({ accountId })));
    },
    enableWebhook: async (req, res) => {
      const accountId = await targetAccountId(req, identity);
      const { endpoint } = await notifier.enableWebhookEndpoint({ accountId });
      noStore(res).json(storedWebhookJson(endpoint, viewerAccountId(req, accountId)));
    },
    recoverWebhookDeliveries: async (req, res) => {
      const accountId = await targetAccountId(req, identity);
      const body = validatedBody(req, RecoverRequest);
      if (body.until !== undefined && body.since >= body.until) throw new ApiError(400, 'until must be after since');
      const answer = await notifier.recoverDeliveries({
        accountId,
        sinceEpochMs: body.since,
        untilEpochMs: body.until ?? 0,
        mode: RECOVERY_MODE_VALUES[body.mode] as notificationV1.RecoveryMode,
        dryRun: body.dryRun ?? false,
      });
      noStore(res)
        .status(answer.dryRun ? 200 : 202)
        .json(recoverAnswerJson(answer));
    },
    getWebhookRecovery: async (req, res) => {
      const accountId = await targetAccountId(req, identity);
      const { jobId } = validatedParams(req, RecoveryJobParams);
      noStore(res).json(recoveryJobJson(await notifier.getRecoveryJob({ accountId, jobId })));
    },
    getWebhookHealth: async (req, res) => {
      const accountId = await targetAccountId(req, identity);
      noStore(res).json(webhookHealthJson(await notifier.getWebhookHealth({ accountId })));
    },
    sendWebhookTest: async (req, res) => {
      const accountId = await targetAccountId(req, identity);
      const { delivery } = await notifier.sendTestDelivery({ accountId });
      noStore(res).status(202).json(deliveryJson(delivery, true));
    },
  };
}
