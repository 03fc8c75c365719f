import { MASK } from '../domain/authentication.js';
import type { EndpointConfig, WebhookEndpoint } from '../domain/endpoint.js';

/** What an owner may read: the endpoint without any secret (passwords masked, signing secrets left out). */
export interface MaskedEndpoint extends Omit<WebhookEndpoint, 'signingSecret' | 'previousSigningSecret' | 'authentication'> {
  authentication: EndpointConfig['authentication'];
}

export function maskEndpoint(endpoint: WebhookEndpoint): MaskedEndpoint {
  const { signingSecret: _s, previousSigningSecret: _p, authentication, ...rest } = endpoint;
  return { ...rest, authentication: { ...authentication, password: authentication.password ? MASK : '' } };
}

export interface SigningSecrets {
  signingSecret: string;
  previousSigningSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

export function signingSecretsOf(endpoint: WebhookEndpoint, now: Date): SigningSecrets {
  const live = endpoint.previousSecretExpiresAt !== null && endpoint.previousSecretExpiresAt > now;
  return {
    signingSecret: endpoint.signingSecret,
    previousSigningSecret: live ? endpoint.previousSigningSecret : null,
    previousSecretExpiresAt: live ? endpoint.previousSecretExpiresAt : null,
  };
}
