/** The administrator every in-process test stack bootstraps identity with. */
export const ADMIN = { username: 'admin@stormhook.test', password: 'admin-password-1' };

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, any>;
}

/** An answer with its raw bytes too (protobuf bodies, exact sizes). */
export interface RawAnswer extends Answer {
  bytes: Buffer;
}

export interface CallOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
}

export interface SessionUser {
  userId: string;
  username: string;
  token: string;
  /** Set when the user was given an account. */
  accountId?: string;
}

/**
 * A test's client of one gateway: calls with JSON in and out, and the administrator's chores every
 * suite needs (log in, create an ACTIVE user with an account on a plan). `label` names the users it
 * creates, so a failing suite's leftovers say whose they are.
 */
export class ApiSession {
  private adminAccess: string | undefined;
  private counter = 0;

  constructor(
    readonly baseUrl: string,
    private readonly label: string,
  ) {}

  async call(method: string, path: string, options: CallOptions = {}): Promise<RawAnswer> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers['authorization'] = `Bearer ${options.token}`;
    const init: RequestInit = { method, headers };
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(options.body);
    }
    const response = await fetch(`${this.baseUrl}${path}`, init);
    const bytes = Buffer.from(await response.arrayBuffer());
    const json = (response.headers.get('content-type') ?? '').includes('json') && bytes.length > 0;
    return { status: response.status, headers: response.headers, body: json ? (JSON.parse(bytes.toString('utf8')) as Record<string, any>) : {}, bytes };
  }

  async login(username: string, password: string): Promise<string> {
    const answer = await this.call('POST', '/v1/auth/login', { body: { username, password } });
    if (answer.status !== 200) throw new Error(`login of ${username} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
    return String(answer.body['accessToken']);
  }

  async adminToken(): Promise<string> {
    return (this.adminAccess ??= await this.login(ADMIN.username, ADMIN.password));
  }

  /** An ACTIVE user with `role`; with `plan`, an account on that plan (the user's token then names it). */
  async user(role: string, plan?: string): Promise<SessionUser> {
    const n = ++this.counter;
    const username = `${this.label}-${role.toLowerCase().replace(/_/g, '-')}-${n}-${Date.now().toString(36)}@example.com`;
    const password = `password-${n}-secret`;
    const token = await this.adminToken();
    const created = await this.call('POST', '/v1/users/create', {
      token,
      body: { username, firstName: 'Test', lastName: `${this.label} ${n}`, role, password },
    });
    if (created.status !== 201) throw new Error(`cannot create user: ${created.status} ${JSON.stringify(created.body)}`);
    const userId = String(created.body['userId']);
    let accountId: string | undefined;
    if (plan) {
      const account = await this.call('POST', '/v1/accounts/create', { token, body: { userId, type: 'ORGANIZATION', subscriptionPlan: plan } });
      if (account.status !== 200) throw new Error(`cannot create account: ${account.status} ${JSON.stringify(account.body)}`);
      accountId = String(account.body['id']);
    }
    return { userId, username, token: await this.login(username, password), ...(accountId ? { accountId } : {}) };
  }
}
