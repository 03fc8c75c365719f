import { contentHash } from '../dedup/content-hash.js';
import { decide } from '../dedup/decide.js';
import type { SeenKey, SeenRecord, SeenStore } from '../dedup/seen-store.js';
import type { NormalisedRecord } from '../domain/normalised.js';
import type { IngestRules } from '../domain/rules.js';
import { validateFeedMessage, type FeedMessage } from '../domain/validate.js';
import { publishWeather, type WeatherSink } from './weather-topics.js';

export type { WeatherSink };

export interface IngestRecordDeps {
  store: SeenStore;
  sink: WeatherSink;
  rules: IngestRules;
  clock?: () => number;
}

export type IngestResult =
  | { kind: 'published'; revision: number; eventIds: string[]; kafkaEventIds: string[] }
  | { kind: 'duplicate'; sourceId: string }
  | { kind: 'stale'; sourceId: string }
  | { kind: 'rejected'; reason: string };

/** Concurrent writers on one source id are rare; a few rounds settle any realistic race. */
const MAX_ROUNDS = 5;

/**
 * The whole life of one feed record: validate and normalise, decide against what was published
 * before, publish, then record the revision in the seen-store. Publishing before recording makes
 * redelivery safe: a crash in between leaves the store as it was, so the next delivery publishes the
 * same revision again under the same deterministic Kafka event id, which readers de-duplicate. (The
 * other order would need a second write per record, and updates are the slow path of the embedded
 * database.) Store and broker failures propagate, and the consumer retries.
 */
export class IngestRecord {
  private readonly clock: () => number;

  constructor(private readonly deps: IngestRecordDeps) {
    this.clock = deps.clock ?? Date.now;
  }

  async execute(input: FeedMessage): Promise<IngestResult> {
    const now = this.clock();
    const validated = validateFeedMessage(input, now, this.deps.rules);
    if (!validated.ok) return { kind: 'rejected', reason: validated.reason };
    const record = validated.value;
    const key: SeenKey = { feed: record.feed, sourceId: record.sourceId };
    const entry: Omit<SeenRecord, 'revision'> = {
      contentHash: contentHash(record.events),
      sourceVersion: record.version,
      sourceUpdatedEpochMs: record.updatedEpochMs,
      eventTimeEpochMs: record.eventTimeEpochMs,
    };

    for (let round = 0; round < MAX_ROUNDS; round++) {
      const stored = await this.deps.store.find(key, entry.eventTimeEpochMs);
      const decision = decide(stored, entry);
      switch (decision.kind) {
        case 'duplicate':
          return { kind: 'duplicate', sourceId: record.sourceId };
        case 'stale':
          return { kind: 'stale', sourceId: record.sourceId };
        case 'conflict':
          return { kind: 'rejected', reason: `source id ${record.sourceId}: ${decision.reason}` };
        case 'first': {
          const kafkaEventIds = await this.publish(record, 1, now);
          // Refused: another consumer recorded this source id meanwhile; decide again against its entry.
          if (!(await this.deps.store.insert(key, { ...entry, revision: 1 }))) continue;
          return { kind: 'published', revision: 1, eventIds: record.events.map((e) => e.eventId), kafkaEventIds };
        }
        case 'supersede': {
          const kafkaEventIds = await this.publish(record, decision.revision, now);
          if (!(await this.deps.store.replace(key, stored!.revision, { ...entry, revision: decision.revision }))) continue;
          return { kind: 'published', revision: decision.revision, eventIds: record.events.map((e) => e.eventId), kafkaEventIds };
        }
      }
    }
    throw new Error(`source id ${record.sourceId} kept changing under us for ${MAX_ROUNDS} rounds`);
  }

  private async publish(record: NormalisedRecord, revision: number, now: number): Promise<string[]> {
    const result = await publishWeather(this.deps.sink, record, {
      revision,
      sourceVersion: record.version,
      sourceUpdatedEpochMs: record.updatedEpochMs,
      ingestedEpochMs: now,
    });
    return result.eventIds;
  }
}
