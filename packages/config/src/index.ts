export { defineEnv, type ConfigOf, type EnvSource, type EnvSpec, type LoadConfig } from './define-env.js';
export { str, int, num, port, bool, list, url, oneOf } from './kinds.js';
export type { StrOptions, NumberOptions, ListOptions, UrlOptions } from './kinds.js';
export { ConfigError, type ConfigIssue } from './config-error.js';
export type { VarSpec, CommonOptions } from './var-spec.js';
export { findRepoRoot, requireRepoRoot } from './repo-root.js';
