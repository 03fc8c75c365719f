import type { HandlerOf } from '@stormhook/grpc';
import type { Logger } from '@stormhook/logger';
import type { identityV1 } from '@stormhook/proto';
import type { UserRepository } from '../ports/repositories.js';
import type { IdentityUseCases } from '../usecases/create-use-cases.js';

type Service = typeof identityV1.IdentityService;

/** Handlers of some of the rpcs of IdentityService, keyed like the generated definition. */
export type IdentityHandlers<K extends keyof Service> = { [P in K]: HandlerOf<Service[P]> };

export interface IdentityHandlerDeps {
  uc: IdentityUseCases;
  /** Read on every call with a caller, to act on the user's current role and status. */
  users: UserRepository;
  /** What GetTokenKeys answers: fixed for the life of the process. */
  tokenKeys: identityV1.GetTokenKeysResponse;
  logger: Logger;
}
