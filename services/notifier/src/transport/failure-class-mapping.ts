import type { notificationV1 } from '@stormhook/proto';
import type { FailureClass } from '../domain/failure-class.js';

/** The domain's failure classes as the proto enum; a new class does not compile until it has its value. */
const OUT: Readonly<Record<FailureClass, notificationV1.WebhookFailureClass>> = {
  TIMEOUT: 'WEBHOOK_FAILURE_CLASS_TIMEOUT',
  CONNECTION_REFUSED: 'WEBHOOK_FAILURE_CLASS_CONNECTION_REFUSED',
  DNS: 'WEBHOOK_FAILURE_CLASS_DNS',
  TLS: 'WEBHOOK_FAILURE_CLASS_TLS',
  SSRF_BLOCKED: 'WEBHOOK_FAILURE_CLASS_SSRF_BLOCKED',
  CONNECTION_ERROR: 'WEBHOOK_FAILURE_CLASS_CONNECTION_ERROR',
  HTTP_3XX: 'WEBHOOK_FAILURE_CLASS_HTTP_3XX',
  HTTP_4XX: 'WEBHOOK_FAILURE_CLASS_HTTP_4XX',
  HTTP_5XX: 'WEBHOOK_FAILURE_CLASS_HTTP_5XX',
  ACKNOWLEDGEMENT: 'WEBHOOK_FAILURE_CLASS_ACKNOWLEDGEMENT',
};
const IN = new Map<string, FailureClass>(Object.entries(OUT).map(([domain, wire]) => [wire, domain as FailureClass]));

export const failureClassMessage = (failureClass: FailureClass | null | undefined): notificationV1.WebhookFailureClass =>
  failureClass ? OUT[failureClass] : 'WEBHOOK_FAILURE_CLASS_UNSPECIFIED';

/** The filter a request names; undefined for UNSPECIFIED (no filter). */
export const failureClassFilter = (wire: notificationV1.WebhookFailureClass): FailureClass | undefined => IN.get(wire);
