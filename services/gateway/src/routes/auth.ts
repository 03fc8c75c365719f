import { LoginRequest, LogoutRequest, RefreshRequest, TokenResponse } from '../schemas/auth.js';
import type { RouteSpec } from '../contract/route-spec.js';
import { PUBLIC_ERRORS } from './error-sets.js';

export const authRoutes: readonly RouteSpec[] = [
  {
    operationId: 'login',
    method: 'post',
    path: '/v1/auth/login',
    summary: 'Exchange username and password for an access and a refresh token',
    tag: 'authentication',
    roles: 'anyone',
    authenticated: false,
    request: { body: LoginRequest },
    response: { status: 200, description: 'the tokens', schema: TokenResponse },
    errors: PUBLIC_ERRORS,
  },
  {
    operationId: 'refreshToken',
    method: 'post',
    path: '/v1/auth/refresh',
    summary: 'Exchange a refresh token for new tokens',
    tag: 'authentication',
    roles: 'anyone holding a valid refresh token',
    authenticated: false,
    request: { body: RefreshRequest },
    response: { status: 200, description: 'the tokens', schema: TokenResponse },
    errors: PUBLIC_ERRORS,
  },
  {
    operationId: 'logout',
    method: 'post',
    path: '/v1/auth/logout',
    summary: 'End the session of a refresh token',
    description: 'The refresh token is the credential: logging out works after the access token expired, and twice is not an error.',
    tag: 'authentication',
    roles: 'anyone holding the refresh token',
    authenticated: false,
    request: { body: LogoutRequest },
    response: { status: 204, description: 'the session has ended' },
    errors: [400, 500],
  },
];
