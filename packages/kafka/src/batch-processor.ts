import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Link } from '@opentelemetry/api';
import type { KafkaMessage } from 'kafkajs';
import type { Logger } from '@stormhook/logger';
import { extractTraceContext } from '@stormhook/telemetry';
import { nextStep, outcomeFromError, type Outcome, type RetryPolicy } from './outcome.js';
import { backoff, type RecordCoordinates } from './record-processor.js';
import { toConsumedRecord, type ConsumedRecord } from './record.js';
import { kafkaTracer, messagingAttributes } from './tracing.js';

/**
 * Handles records of one partition together, in offset order, and answers one outcome per record,
 * in the same order. For work that batches (one database round trip for many records) when records
 * share keys, so a per-key window would run them one by one (a storm's strikes share an area key).
 * A record answered `retry` is handed over again, with the others still to retry, after the rest
 * of its batch: a handler that needs per-key order answers retry for all of them or none (a
 * database outage), not for single records.
 */
export type BatchHandler = (records: readonly ConsumedRecord[]) => Promise<readonly Outcome[]>;

export interface BatchProcessorDeps {
  groupId: string;
  handler: BatchHandler;
  policy: RetryPolicy;
  logger: Logger;
  signal: AbortSignal;
  heartbeatIntervalMs: number;
  deadLetter(message: KafkaMessage, at: RecordCoordinates, reason: string): Promise<void>;
}

/** How many of the messages, from the first, are finished; and why the rest are not, if they are not. */
export type ChunkResult = { finished: number } & ({ kind: 'done' } | { kind: 'abandoned' } | { kind: 'fatal'; error: Error });

async function runBatchHandler(handler: BatchHandler, records: readonly ConsumedRecord[]): Promise<readonly Outcome[]> {
  try {
    const outcomes = await handler(records);
    if (outcomes.length !== records.length) throw new Error(`batch handler answered ${outcomes.length} outcomes for ${records.length} records`);
    return outcomes;
  } catch (error) {
    const outcome = outcomeFromError(error);
    return records.map(() => outcome);
  }
}

/**
 * One chunk of a partition's batch through the batch handler, with the record processor's rules:
 * unparseable records and dead-letter outcomes go to the dead-letter topic, retries back off (only
 * the records that asked), and a retry that never clears ends the consumer. Only the unbroken
 * prefix of finished records counts as finished.
 */
export async function processChunk(
  deps: BatchProcessorDeps,
  at: RecordCoordinates,
  messages: readonly KafkaMessage[],
  heartbeat: () => Promise<void>,
): Promise<ChunkResult> {
  const links: Link[] = [];
  for (const message of messages) {
    const context = trace.getSpanContext(extractTraceContext(message.headers ?? {}, ROOT_CONTEXT));
    if (context) links.push({ context });
  }
  const attributes = messagingAttributes(at.physicalTopic, {
    'messaging.operation.type': 'process',
    'messaging.consumer.group.name': deps.groupId,
    'messaging.destination.partition.id': String(at.partition),
    'messaging.batch.message_count': messages.length,
  });
  return kafkaTracer().startActiveSpan(
    `process ${at.physicalTopic}`,
    { kind: SpanKind.CONSUMER, attributes, links },
    ROOT_CONTEXT,
    async (span): Promise<ChunkResult> => {
      const done = new Array<boolean>(messages.length).fill(false);
      const finished = (): number => {
        const first = done.indexOf(false);
        return first === -1 ? messages.length : first;
      };
      const deadLetter = async (index: number, reason: string): Promise<Error | undefined> => {
        const message = messages[index]!;
        try {
          await deps.deadLetter(message, at, reason);
        } catch (error) {
          return new Error(`could not dead-letter ${at.physicalTopic}/${at.partition}@${message.offset}: ${(error as Error).message}`);
        }
        deps.logger.warn({ topic: at.physicalTopic, partition: at.partition, offset: message.offset, reason }, 'record dead-lettered');
        done[index] = true;
        return undefined;
      };
      const fatal = (error: Error): ChunkResult => {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
        return { finished: finished(), kind: 'fatal', error };
      };

      try {
        let pending: Array<{ index: number; record: ConsumedRecord }> = [];
        for (let i = 0; i < messages.length; i++) {
          const parsed = toConsumedRecord(at.topic, at.partition, messages[i]!);
          if (parsed.ok) pending.push({ index: i, record: parsed.record });
          else {
            const failed = await deadLetter(i, `unparseable record: ${parsed.reason}`);
            if (failed) return fatal(failed);
          }
        }
        for (let attempt = 1; pending.length > 0; attempt++) {
          const outcomes = await runBatchHandler(
            deps.handler,
            pending.map((p) => p.record),
          );
          const again: typeof pending = [];
          let delayMs = 0;
          for (const [n, item] of pending.entries()) {
            const step = nextStep(outcomes[n]!, attempt, deps.policy);
            switch (step.kind) {
              case 'commit':
                done[item.index] = true;
                break;
              case 'dead-letter': {
                const failed = await deadLetter(item.index, step.reason);
                if (failed) return fatal(failed);
                break;
              }
              case 'give-up':
                return fatal(
                  new Error(
                    `gave up on ${at.physicalTopic}/${at.partition}@${messages[item.index]!.offset} (event ${item.record.headers.eventId}) after ${step.attempts} attempts: ${step.reason}`,
                  ),
                );
              case 'retry':
                again.push(item);
                delayMs = Math.max(delayMs, step.delayMs);
                break;
            }
          }
          if (again.length > 0) {
            span.addEvent('retry', { attempt, records: again.length, delay_ms: delayMs });
            deps.logger.warn(
              { topic: at.physicalTopic, partition: at.partition, records: again.length, attempt, delayMs },
              'batch handler asked to retry records',
            );
            if (deps.signal.aborted || !(await backoff(delayMs, deps.signal, heartbeat, deps.heartbeatIntervalMs))) {
              return { finished: finished(), kind: 'abandoned' };
            }
          }
          pending = again;
        }
        return { finished: finished(), kind: 'done' };
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
