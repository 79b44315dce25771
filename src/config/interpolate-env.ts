export interface InterpolationResult {
  value: unknown;
  /** `<path>: environment variable X is not set`, one per missing variable use. */
  problems: string[];
}

const PLACEHOLDER = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Replaces `${NAME}` in every string value (not in mapping keys) with the environment variable;
 * `$${` stands for a literal `${`. Working on parsed values rather than raw text means a secret
 * containing `:` or `#` cannot change the YAML's structure.
 */
export function interpolateEnv(document: unknown, env: Record<string, string | undefined>): InterpolationResult {
  const problems: string[] = [];

  const visit = (value: unknown, path: string): unknown => {
    if (typeof value === 'string') {
      return value.replace(PLACEHOLDER, (match, variable: string | undefined) => {
        if (variable === undefined) return '${';
        const replacement = env[variable];
        if (replacement === undefined) {
          problems.push(`${path || '(top level)'}: environment variable ${variable} is not set`);
          return match;
        }
        return replacement;
      });
    }
    if (Array.isArray(value)) return value.map((item, index) => visit(item, `${path}[${index}]`));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, visit(item, path === '' ? key : `${path}.${key}`)]));
    }
    return value;
  };

  return { value: visit(document, ''), problems };
}
