import { Outcomes, TopicNames, type ChannelHandlers } from '@stormhook/kafka';
import type { EntitlementBook } from '../usecases/entitlement/entitlement-book.js';

/**
 * Applies identity.user-changed.v1 to this instance's entitlements: the owner is read again from
 * identity (the event carries no state, so an old or repeated one only costs a read). Every change
 * kind is followed: status, account and subscription are what suspend; the others cost one read.
 */
export function userChangeHandlers(book: Pick<EntitlementBook, 'userChanged'>): ChannelHandlers<typeof TopicNames.UserChanged> {
  return {
    [TopicNames.UserChanged]: async ({ message: change }) => {
      if (!change.userId) return Outcomes.deadLetter('UserChanged without userId');
      await book.userChanged(change.userId);
      return Outcomes.ok();
    },
  };
}
