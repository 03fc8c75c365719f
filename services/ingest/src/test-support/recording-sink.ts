import type { EventToPublish, PublishResult, TopicName } from '@stormhook/kafka';
import type { WeatherSink } from '../usecases/ingest-record.js';

/** A WeatherSink that keeps what it was given; `failNext` makes the next publish reject like a broker outage. */
export class RecordingSink implements WeatherSink {
  readonly published: Array<{ topic: TopicName; event: EventToPublish }> = [];
  failNext = 0;

  async publish(topic: TopicName, events: readonly EventToPublish[]): Promise<PublishResult> {
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('broker unavailable');
    }
    for (const event of events) this.published.push({ topic, event });
    return { eventIds: events.map((e) => e.eventId ?? 'generated') };
  }
}
