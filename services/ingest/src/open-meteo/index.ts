export { fetchForecastRun, publishForecastRun, runOpenMeteoAdapter, type OpenMeteoOptions, type AdapterLoopOptions } from './adapter.js';
export { parseForecastResponse, OpenMeteoFormatError, type LocationForecast } from './response.js';
export { forecastUrl, type ForecastRequest } from './request.js';
export { parseGrid, type GridPoint } from './grid.js';
export { loadOpenMeteoConfig, type OpenMeteoConfig } from './config.js';
export { OPEN_METEO_VARIABLES } from './variables.js';
