import type { Publisher } from '@stormhook/kafka';

/** Where a feed publisher of this repository (simulator, Open-Meteo adapter) sends records: the Kafka publisher, or a fake in tests. */
export type FeedSink = Pick<Publisher, 'publish'>;
