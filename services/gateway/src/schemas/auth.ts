import { closedObject, named, openObject } from './json-schema.js';

/** Login and refresh as the incumbent documents them (the contract leaves them "not shown"). */
export const LoginRequest = named(
  'LoginRequest',
  closedObject(
    {
      username: { type: 'string', format: 'email', maxLength: 320 },
      password: { type: 'string', minLength: 1, maxLength: 256, writeOnly: true },
    },
    ['username', 'password'],
  ),
);

export const RefreshRequest = named('RefreshRequest', closedObject({ refreshToken: { type: 'string', minLength: 1, maxLength: 4096 } }, ['refreshToken']));

/** Logout revokes the refresh token it names (refresh tokens are revocable; access tokens are short-lived). */
export const LogoutRequest = named('LogoutRequest', closedObject({ refreshToken: { type: 'string', minLength: 1, maxLength: 4096 } }, ['refreshToken']));

export const TokenResponse = named(
  'TokenResponse',
  openObject(
    {
      username: { type: 'string' },
      type: { type: 'string', examples: ['Bearer'] },
      accessToken: { type: 'string' },
      refreshToken: { type: 'string' },
      expiresIn: { type: 'integer', description: 'seconds until the access token expires' },
    },
    ['username', 'type', 'accessToken', 'refreshToken', 'expiresIn'],
  ),
);
