import type { queryV1 } from '@stormhook/proto';
import type { QueryContext } from '../usecases/context.js';
import { getForecast } from '../usecases/get-forecast.js';
import { listPrecipitations } from '../usecases/list-precipitations.js';
import { precipitationGeometry } from '../usecases/precipitation-geometry.js';
import { getThunderstorm, listThunderstorms } from '../usecases/thunderstorms.js';

/** The QueryService gRPC API over the use cases; failures are GrpcErrors with public details. */
export function queryHandlers(ctx: QueryContext): queryV1.QueryServiceHandlers {
  return {
    listPrecipitations: (request) => listPrecipitations(ctx, request),
    getPrecipitationGeometry: (request) => precipitationGeometry(ctx, request),
    listThunderstorms: (request) => listThunderstorms(ctx, request),
    getThunderstorm: (request) => getThunderstorm(ctx, request),
    getForecast: (request) => getForecast(ctx, request),
  };
}
