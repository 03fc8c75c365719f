import { enumName, enumValue, notificationV1 } from '@stormhook/proto';
import type { AuthType } from '../domain/authentication.js';
import { failureClassMessage } from './failure-class-mapping.js';
import type { DeliveryAttempt } from '../domain/delivery.js';
import type { EndpointConfigInput } from '../domain/endpoint-input.js';
import type { DeliveryView } from '../usecases/delivery-log.js';
import type { MaskedEndpoint, SigningSecrets } from '../usecases/endpoint-views.js';

const ms = (date: Date | null | undefined): number => (date ? date.getTime() : 0);

/** The proto configuration as the use cases take it: nothing trusted, absent fields stay absent. */
export function configInput(config: notificationV1.WebhookEndpointConfig | null | undefined): EndpointConfigInput {
  if (!config) return {};
  const auth = config.authentication;
  const policy = config.deliveryPolicy;
  return {
    url: config.url,
    httpMethod: config.httpMethod,
    contentType: config.contentType,
    ...(auth
      ? {
          authentication: {
            // UNSPECIFIED means "not given": the use case reads that as NONE. A wire number this build
            // does not know passes through as its digits, so validation refuses it by name.
            type: auth.type === 'WEBHOOK_AUTH_TYPE_UNSPECIFIED' ? undefined : (enumName(notificationV1.WebhookAuthType, auth.type) ?? String(auth.type)),
            username: auth.username,
            password: auth.password,
          },
        }
      : {}),
    requestHeaders: { ...config.requestHeaders },
    ...(policy
      ? {
          deliveryPolicy: {
            ...(policy.timeoutMs !== undefined && policy.timeoutMs !== null ? { timeoutMs: policy.timeoutMs } : {}),
            ...(policy.maxRetries !== undefined && policy.maxRetries !== null ? { maxRetries: policy.maxRetries } : {}),
            ...(policy.retryDelaySeconds !== undefined && policy.retryDelaySeconds !== null ? { retryDelaySeconds: policy.retryDelaySeconds } : {}),
          },
        }
      : {}),
  };
}

function authType(type: AuthType): notificationV1.WebhookAuthType {
  return enumValue(notificationV1.WebhookAuthType, type);
}

export function endpointMessage(endpoint: MaskedEndpoint, now: Date): notificationV1.WebhookEndpoint {
  const previousLive = endpoint.previousSecretExpiresAt !== null && endpoint.previousSecretExpiresAt > now;
  return notificationV1.WebhookEndpoint.create({
    endpointId: endpoint.id,
    accountId: endpoint.accountId,
    config: notificationV1.WebhookEndpointConfig.create({
      url: endpoint.url,
      httpMethod: endpoint.httpMethod,
      contentType: endpoint.contentType,
      authentication: notificationV1.WebhookAuthentication.create({
        type: authType(endpoint.authentication.type),
        username: endpoint.authentication.username,
        password: endpoint.authentication.password, // masked by the use case
      }),
      requestHeaders: { ...endpoint.requestHeaders },
      deliveryPolicy: notificationV1.WebhookDeliveryPolicy.create({
        timeoutMs: endpoint.deliveryPolicy.timeoutMs,
        maxRetries: endpoint.deliveryPolicy.maxRetries,
        retryDelaySeconds: endpoint.deliveryPolicy.retryDelaySeconds,
      }),
    }),
    status: endpoint.status === 'enabled' ? 'WEBHOOK_ENDPOINT_STATUS_ENABLED' : 'WEBHOOK_ENDPOINT_STATUS_DISABLED',
    disabledReason: endpoint.disabledReason ?? '',
    disabledAtEpochMs: ms(endpoint.disabledAt),
    failingSinceEpochMs: ms(endpoint.failingSince),
    createdAtEpochMs: ms(endpoint.createdAt),
    updatedAtEpochMs: ms(endpoint.updatedAt),
    previousSecretExpiresAtEpochMs: previousLive ? ms(endpoint.previousSecretExpiresAt) : 0,
    ownerEmail: endpoint.ownerEmail ?? '',
  });
}

export function signingSecretMessage(secrets: SigningSecrets): notificationV1.SigningSecretResponse {
  return notificationV1.SigningSecretResponse.create({
    signingSecret: secrets.signingSecret,
    previousSigningSecret: secrets.previousSigningSecret ?? '',
    previousSecretExpiresAtEpochMs: ms(secrets.previousSecretExpiresAt),
  });
}

const STATUS_OUT: Readonly<Record<DeliveryView['status'], notificationV1.DeliveryStatus>> = {
  pending: 'DELIVERY_STATUS_PENDING',
  'in-flight': 'DELIVERY_STATUS_IN_FLIGHT',
  succeeded: 'DELIVERY_STATUS_SUCCEEDED',
  dead: 'DELIVERY_STATUS_DEAD',
};

const STATUS_IN: Readonly<Record<notificationV1.DeliveryStatus, DeliveryView['status'] | undefined>> = {
  DELIVERY_STATUS_UNSPECIFIED: undefined,
  DELIVERY_STATUS_PENDING: 'pending',
  DELIVERY_STATUS_IN_FLIGHT: 'in-flight',
  DELIVERY_STATUS_SUCCEEDED: 'succeeded',
  DELIVERY_STATUS_DEAD: 'dead',
};

export function statusFilter(status: notificationV1.DeliveryStatus): DeliveryView['status'] | undefined {
  return STATUS_IN[status];
}

function attemptMessage(attempt: DeliveryAttempt): notificationV1.DeliveryAttempt {
  return notificationV1.DeliveryAttempt.create({
    attemptNumber: attempt.attemptNumber,
    trigger: attempt.trigger === 'manual' ? 'ATTEMPT_TRIGGER_MANUAL' : 'ATTEMPT_TRIGGER_SCHEDULED',
    url: attempt.url,
    startedAtEpochMs: ms(attempt.startedAt),
    durationMs: attempt.durationMs,
    responseStatusCode: attempt.responseStatus ?? 0,
    responseBody: attempt.responseBody,
    responseBodyTruncated: attempt.responseBodyTruncated,
    succeeded: attempt.succeeded,
    error: attempt.error ?? '',
    nextAttemptAtEpochMs: ms(attempt.nextAttemptAt),
    failureClass: failureClassMessage(attempt.failureClass),
  });
}

/** The class of the last attempt's failure, when the delivery comes with its attempts. */
function lastFailureOf(attempts: readonly DeliveryAttempt[]): DeliveryAttempt['failureClass'] {
  const last = attempts.at(-1);
  return last && !last.succeeded ? last.failureClass : undefined;
}

/** A delivery; list results come without attempts and payload (the store leaves them out). */
export function deliveryMessage(delivery: DeliveryView): notificationV1.Delivery {
  return notificationV1.Delivery.create({
    notificationId: delivery.id,
    accountId: delivery.accountId,
    endpointId: delivery.endpointId ?? '',
    registrationId: delivery.registrationId,
    recipientId: delivery.recipientId,
    eventKind: delivery.eventKind,
    status: STATUS_OUT[delivery.status],
    attemptCount: delivery.attemptCount,
    nextAttemptAtEpochMs: delivery.status === 'pending' ? ms(delivery.nextAttemptAt) : 0,
    createdAtEpochMs: ms(delivery.createdAt),
    finishedAtEpochMs: ms(delivery.finishedAt),
    lastResponseStatusCode: delivery.lastResponseStatus ?? 0,
    test: delivery.test,
    attempts: delivery.attempts.map(attemptMessage),
    payloadJson: delivery.payload,
    callbackType: delivery.callbackType ?? '',
    lastFailureClass: failureClassMessage(delivery.lastFailureClass ?? lastFailureOf(delivery.attempts)),
  });
}
