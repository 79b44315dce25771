/** A failure to report to the user as one line on stderr; `exitCode` 2 marks a usage mistake. */
export class CliError extends Error {
  /** @param {string} message @param {number} [exitCode] */
  constructor(message, exitCode = 1) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/** @param {string} message */
export function usageError(message) {
  return new CliError(message, 2);
}
