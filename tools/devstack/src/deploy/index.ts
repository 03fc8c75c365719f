export { runDeployChecks } from './run-checks.js';
export { renderTopicsFile, chartTopics, TOPICS_FILE, TOPICS_GENERATED, type ChartTopic } from './topics-file.js';
export { generatedFileState, writeGeneratedFile, type GeneratedFile } from './generated-file.js';
export { GENERATED_FILES } from './generated-files.js';
