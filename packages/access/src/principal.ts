import type { Role } from './roles.js';

/** Who is calling, as established by an access token or an API key. */
export interface Principal {
  userId: string;
  /** Absent while the user has no account yet. */
  accountId?: string;
  role: Role;
  username: string;
  /** How the identity was proven: API keys are for machine clients (role API_USER) only. */
  via: 'access-token' | 'api-key';
}
