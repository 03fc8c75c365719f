import { Outcomes, type ChannelHandler, type TopicNames } from '@stormhook/kafka';
import type { Logger } from '@stormhook/logger';
import type { AcceptAlarm } from '../usecases/accept-alarm.js';

/**
 * Consumer handler for alarm.triggered.v1: decode, validate, store the delivery durably, commit. It
 * never sends: a slow receiver must not hold a Kafka partition (the worker sends). A database failure
 * returns retry, so the offset is not committed before the delivery is stored.
 */
export function alarmTriggeredHandler(accept: AcceptAlarm, logger: Logger): ChannelHandler<typeof TopicNames.AlarmTriggered> {
  return async (record) => {
    const event = record.message;
    if (!event.notificationId) return Outcomes.deadLetter('AlarmTriggered without notification_id');
    if (!event.accountId) return Outcomes.deadLetter('AlarmTriggered without account_id');
    try {
      JSON.parse(event.payloadJson);
    } catch {
      return Outcomes.deadLetter('AlarmTriggered payload_json is not JSON');
    }
    try {
      const result = await accept.execute(event);
      if (result !== 'accepted') logger.info({ notificationId: event.notificationId, result }, 'alarm not queued for sending');
      return Outcomes.ok();
    } catch (error) {
      return Outcomes.retry(`could not store delivery ${event.notificationId}: ${(error as Error).message}`);
    }
  };
}
