import { envSchema } from '../config/config-schema.ts';
import { ENV_HELP, OTHER_ENV_HELP, type EnvVariable } from '../config/env-help.ts';

const NAME_WIDTH = 32;

/**
 * `node dist/main.js --help`: how to run the gateway, and every variable the configuration reads.
 * The list is the schema's own keys, and each default is what the schema gives an empty
 * environment, so the help cannot miss a variable or state a stale default.
 */
export function usageText(): string {
  const defaults = envSchema.parse({}) as Record<EnvVariable, unknown>;
  const lines = (Object.keys(envSchema.shape) as EnvVariable[]).map((name) => {
    const help = ENV_HELP[name];
    const fallback = help.default ?? describeDefault(defaults[name]);
    return variableLine(name, `${help.meaning}${fallback === undefined ? '' : ` (default ${fallback})`}`);
  });
  const others = Object.entries(OTHER_ENV_HELP).map(([name, meaning]) => variableLine(name, meaning));
  return `Usage: node dist/main.js [--help] [--version]     (npm start does the same after compiling)

Runs the Switchyard gateway. Configuration comes from the environment (an empty value counts as unset):

${[...lines, ...others].join('\n')}

Exit codes: 0 stopped cleanly; 1 the environment refused (port in use, database unreachable);
2 the configuration is wrong (a bad variable, config file or command-line option).

Admin CLI: npx switchyard help.  Diagnose a client set-up: npx switchyard-diagnose --help.
`;
}

function variableLine(name: string, text: string): string {
  return name.length < NAME_WIDTH - 1 ? `  ${name.padEnd(NAME_WIDTH)}${text}` : `  ${name}\n  ${' '.repeat(NAME_WIDTH)}${text}`;
}

function describeDefault(value: unknown): string | undefined {
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return undefined;
  return String(value);
}
