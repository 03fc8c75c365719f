import type { queryV1 } from '@stormhook/proto';
import { readHistory, type HistoryReader } from '../usecases/read-history.js';

/** The WeatherHistoryService gRPC API over the read use case; failures are GrpcErrors with public details. */
export function historyHandlers(history: HistoryReader): queryV1.WeatherHistoryServiceHandlers {
  return {
    readHistory: (request) => readHistory(history, request),
  };
}
