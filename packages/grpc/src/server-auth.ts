import type { Metadata } from '@grpc/grpc-js';
import { commonV1, type identityV1 } from '@stormhook/proto';
import { GrpcError, GrpcStatus } from './errors.js';
import { INTERNAL_TOKEN_METADATA, type InternalCaller, type InternalTokenVerifier } from './internal-token.js';
import type { ServerCall } from './server-call.js';

// A refused internal call is our own misconfiguration or an intruder, never the customer's fault:
// the detail tells the gateway to answer 500, not a 401 that would send the client to log in again.
const refused = (code: GrpcStatus, message: string): GrpcError =>
  new GrpcError(code, message, commonV1.ErrorDetail.create({ reason: 'INTERNAL_CALL_REFUSED', message: 'internal error', httpStatus: 500 }));

/** The verified caller of a call, or the UNAUTHENTICATED error to answer with. */
export function authenticateCall(metadata: Metadata, verifier: InternalTokenVerifier): InternalCaller | GrpcError {
  const raw = metadata.get(INTERNAL_TOKEN_METADATA)[0];
  const outcome = verifier.verify(typeof raw === 'string' ? raw : undefined);
  if (outcome.ok) return outcome.caller;
  return refused(GrpcStatus.UNAUTHENTICATED, `internal token ${outcome.reason === 'missing' ? 'missing' : `refused (${outcome.reason})`}`);
}

/** What a request message claims about its caller (its `actor`, `principal` or account id). */
export interface ClaimedCaller {
  userId?: string;
  accountId?: string;
}

/**
 * The customer a call acts for: the verified token's principal, never the request's. A request that
 * names someone else (a forged or confused actor) is PERMISSION_DENIED; a service's own call (no
 * principal in its token) gets undefined, and the handler decides whether that is allowed.
 */
export function actingPrincipal(call: ServerCall, claimed?: ClaimedCaller | null): identityV1.Principal | undefined {
  const principal = call.caller?.principal;
  if (!principal) return undefined;
  if (claimed?.userId && claimed.userId !== principal.userId)
    throw refused(GrpcStatus.PERMISSION_DENIED, 'the request names another caller than its internal token');
  if (claimed?.accountId && principal.accountId && claimed.accountId !== principal.accountId) {
    throw refused(GrpcStatus.PERMISSION_DENIED, 'the request names another account than its internal token');
  }
  return principal;
}
