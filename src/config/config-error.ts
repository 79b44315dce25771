/** Bad configuration: every problem found, each naming what it concerns and what it expects. */
export class ConfigError extends Error {
  constructor(
    heading: string,
    readonly problems: readonly string[],
  ) {
    super(`${heading}\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}
