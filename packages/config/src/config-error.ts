/** One variable that failed, with the words of the message. */
export interface ConfigIssue {
  variable: string;
  /** e.g. `must be an integer from 0 to 65535 (got "abc")` or `is required`. */
  problem: string;
}

/** Thrown once at start with every bad variable, so an operator fixes them all in one go. */
export class ConfigError extends Error {
  readonly issues: readonly ConfigIssue[];
  constructor(issues: readonly ConfigIssue[]) {
    super(`Invalid configuration: ${issues.map((i) => `${i.variable} ${i.problem}`).join('; ')}`);
    this.name = 'ConfigError';
    this.issues = issues;
  }
}
