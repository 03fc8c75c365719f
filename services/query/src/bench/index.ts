// What other packages' benchmarks use of query (package export "@stormhook/query/bench"): the
// weather history store and a storm season to fill it with.
export { HistoryStore, type HistoryStoreOptions } from '../history/persistence/history-store.js';
export { seedStormSeason, boxAround, DAY_MS, type SeededSeason } from './storm-season.js';
