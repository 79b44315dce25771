import { readFile } from 'node:fs/promises';
import type * as Yaml from 'yaml';
import { requireOnDemand } from '../core/require-on-demand.ts';
import { ConfigError } from './config-error.ts';
import type { ConfigFile } from './config-file-schema.ts';
import { configFileSchema } from './config-file-schema.ts';
import { interpolateEnv } from './interpolate-env.ts';
import { describeIssue, valueAt } from '../schemas/describe-issue.ts';

/** Reads, interpolates and validates a config file; every problem is reported at once. */
export async function readConfigFile(path: string, env: Record<string, string | undefined>): Promise<ConfigFile> {
  const text = await readFile(path, 'utf8');
  return parseConfigFile(text, env, path);
}

export function parseConfigFile(text: string, env: Record<string, string | undefined>, source = 'config file'): ConfigFile {
  let document: unknown;
  try {
    document = (requireOnDemand('yaml') as typeof Yaml).parse(text) ?? {};
  } catch (error) {
    throw new ConfigError(`${source} is not valid YAML:`, [(error as Error).message]);
  }
  const { value, problems } = interpolateEnv(document, env);
  if (problems.length > 0) throw new ConfigError(`${source} refers to unset environment variables:`, problems);

  const result = configFileSchema.safeParse(value);
  if (!result.success) {
    throw new ConfigError(
      `${source} is invalid:`,
      result.error.issues.map((issue) => {
        const path = formatPath(issue.path);
        if (issue.code === 'unrecognized_keys') {
          return `${path || '(top level)'}: unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
        }
        return `${path || '(top level)'}: ${describeIssue(issue, valueAt(value, issue.path))}`;
      }),
    );
  }
  return result.data;
}

/** `['channels', 1, 'baseUrl']` → `channels[1].baseUrl`. */
function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`)).join('');
}
