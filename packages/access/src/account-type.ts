import { enumNames, identityV1 } from '@stormhook/proto';

/** interface.md 2.9, from identity's vocabulary.proto. Stored in accounts: renaming one needs a data migration. */
export const ACCOUNT_TYPES = enumNames(identityV1.AccountType, 'ACCOUNT_TYPE_');
export type AccountType = (typeof ACCOUNT_TYPES)[number];
