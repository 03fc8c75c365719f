import { createKafkaClient, createPublisher, EventTypes, TopicNames, type Publisher, type RawRecord } from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import { testInfra } from '@stormhook/testing';
import { feedV1 } from '@stormhook/proto';

export type FeedTopic =
  typeof TopicNames.FeedPrecipitation | typeof TopicNames.FeedLightning | typeof TopicNames.FeedThunderstorm | typeof TopicNames.FeedForecast;
export const FEED_TOPICS: readonly FeedTopic[] = [TopicNames.FeedPrecipitation, TopicNames.FeedLightning, TopicNames.FeedThunderstorm, TopicNames.FeedForecast];

/**
 * A data publisher as FEEDS.md describes one: protobuf records keyed by source id (forecast chunks by
 * run id and chunk), idempotent producer, the event headers, on the stack's prefixed feed topics.
 */
export class FeedPublisher {
  private constructor(private readonly publisher: Publisher) {}

  /** `quiet`: no kafkajs error logs (for a publisher whose sends are meant to be refused). */
  static async connect(brokers: string[], topicPrefix: string, quiet = false): Promise<FeedPublisher> {
    const logger = createLogger({ service: 'e2e-feed', level: quiet ? 'silent' : 'warn' });
    // An outside publisher's own principal: it may write feed.* and nothing else, as FEEDS.md promises.
    const kafka = createKafkaClient({ brokers, credentials: testInfra().kafkaLogin('publisher'), clientId: 'e2e-feed-publisher', logger });
    const publisher = createPublisher(kafka, { logger, clientId: 'e2e-feed-publisher', prefix: topicPrefix });
    await publisher.connect();
    return new FeedPublisher(publisher);
  }

  /** The topic's name on the broker. */
  physical(topic: FeedTopic | typeof TopicNames.DeadLetter): string {
    return this.publisher.topics.physical(topic);
  }

  async lightning(strikes: feedV1.LightningStrike[]): Promise<void> {
    await this.publisher.publish(
      TopicNames.FeedLightning,
      strikes.map((s) => ({ key: s.sourceEventId, value: feedV1.LightningStrike.encode(s), eventType: EventTypes.LightningStrike })),
    );
  }

  async precipitation(observations: feedV1.PrecipitationObservation[]): Promise<void> {
    await this.publisher.publish(
      TopicNames.FeedPrecipitation,
      observations.map((o) => ({ key: o.sourceEventId, value: feedV1.PrecipitationObservation.encode(o), eventType: EventTypes.PrecipitationObservation })),
    );
  }

  async thunderstorm(cells: feedV1.ThunderstormCell[]): Promise<void> {
    await this.publisher.publish(
      TopicNames.FeedThunderstorm,
      cells.map((c) => ({ key: c.sourceEventId, value: feedV1.ThunderstormCell.encode(c), eventType: EventTypes.ThunderstormCell })),
    );
  }

  async forecast(grids: feedV1.ForecastGrid[]): Promise<void> {
    await this.publisher.publish(
      TopicNames.FeedForecast,
      grids.map((g) => ({ key: `${g.runId}#${g.chunkIndex}`, value: feedV1.ForecastGrid.encode(g), eventType: EventTypes.ForecastGrid })),
    );
  }

  /** Records exactly as given, headers included (or left out): how hostile input is sent. */
  async raw(topic: FeedTopic, records: RawRecord[]): Promise<void> {
    await this.publisher.forward(topic, records);
  }

  async close(): Promise<void> {
    await this.publisher.disconnect();
  }
}
