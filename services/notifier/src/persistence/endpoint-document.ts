import type { AuthType } from '../domain/authentication.js';
import type { DeliveryPolicy } from '../domain/delivery-policy.js';
import type { ContentType, EndpointStatus, HttpMethod, WebhookEndpoint } from '../domain/endpoint.js';
import type { CredentialCipher, EncryptedValue } from '../security/credential-cipher.js';

/** An endpoint as stored: every secret encrypted, bound to the record id and field it belongs to. */
export interface EndpointDocument {
  _id: string;
  accountId: string;
  url: string;
  httpMethod: HttpMethod;
  contentType: ContentType;
  auth: { type: AuthType; username: string; password: EncryptedValue | null };
  /**
   * Pairs rather than an object: header names may contain "." which MongoDB reads as a path. Values
   * are encrypted like the password: customers put API keys and bearer tokens there. A plain string
   * is a document written before they were (read as is, encrypted on its next write).
   */
  requestHeaders: { name: string; value: EncryptedValue | string }[];
  deliveryPolicy: DeliveryPolicy;
  status: EndpointStatus;
  disabledReason: string | null;
  disabledAt: Date | null;
  failingSince: Date | null;
  signingSecret: EncryptedValue;
  previousSigningSecret: EncryptedValue | null;
  previousSecretExpiresAt: Date | null;
  ownerEmail: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const aad = (id: string, field: string): string => `webhook_endpoints/${id}/${field}`;
// Bound to the header's name too, so a value cannot be moved under another header of the endpoint.
const headerAad = (id: string, name: string): string => aad(id, `requestHeaders/${name.toLowerCase()}`);

export function toEndpointDocument(endpoint: WebhookEndpoint, cipher: CredentialCipher): EndpointDocument {
  const { id } = endpoint;
  return {
    _id: id,
    accountId: endpoint.accountId,
    url: endpoint.url,
    httpMethod: endpoint.httpMethod,
    contentType: endpoint.contentType,
    auth: {
      type: endpoint.authentication.type,
      username: endpoint.authentication.username,
      password: endpoint.authentication.password ? cipher.encrypt(endpoint.authentication.password, aad(id, 'auth.password')) : null,
    },
    requestHeaders: Object.entries(endpoint.requestHeaders).map(([name, value]) => ({ name, value: cipher.encrypt(value, headerAad(id, name)) })),
    deliveryPolicy: endpoint.deliveryPolicy,
    status: endpoint.status,
    disabledReason: endpoint.disabledReason,
    disabledAt: endpoint.disabledAt,
    failingSince: endpoint.failingSince,
    signingSecret: cipher.encrypt(endpoint.signingSecret, aad(id, 'signingSecret')),
    previousSigningSecret: endpoint.previousSigningSecret ? cipher.encrypt(endpoint.previousSigningSecret, aad(id, 'previousSigningSecret')) : null,
    previousSecretExpiresAt: endpoint.previousSecretExpiresAt,
    ownerEmail: endpoint.ownerEmail,
    createdAt: endpoint.createdAt,
    updatedAt: endpoint.updatedAt,
  };
}

export function fromEndpointDocument(doc: EndpointDocument, cipher: CredentialCipher): WebhookEndpoint {
  const id = doc._id;
  return {
    id,
    accountId: doc.accountId,
    url: doc.url,
    httpMethod: doc.httpMethod,
    contentType: doc.contentType,
    authentication: {
      type: doc.auth.type,
      username: doc.auth.username,
      password: doc.auth.password ? cipher.decrypt(doc.auth.password, aad(id, 'auth.password')) : '',
    },
    requestHeaders: Object.fromEntries(
      doc.requestHeaders.map(({ name, value }) => [name, typeof value === 'string' ? value : cipher.decrypt(value, headerAad(id, name))]),
    ),
    deliveryPolicy: doc.deliveryPolicy,
    status: doc.status,
    disabledReason: doc.disabledReason,
    disabledAt: doc.disabledAt,
    failingSince: doc.failingSince,
    signingSecret: cipher.decrypt(doc.signingSecret, aad(id, 'signingSecret')),
    previousSigningSecret: doc.previousSigningSecret ? cipher.decrypt(doc.previousSigningSecret, aad(id, 'previousSigningSecret')) : null,
    previousSecretExpiresAt: doc.previousSecretExpiresAt,
    ownerEmail: doc.ownerEmail,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}
