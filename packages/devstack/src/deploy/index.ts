export { runDeployChecks } from './run-checks.js';
export { renderTopicsFile, writeTopicsFile, topicsFileState, chartTopics, TOPICS_FILE, type ChartTopic } from './topics-file.js';
