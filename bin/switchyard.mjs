#!/usr/bin/env node
// The Switchyard CLI: a thin client over the admin API (see README.md, "CLI").
import { parseArgs } from 'node:util';
import { createAdminClient } from './lib/admin-client.mjs';
import { CliError, usageError } from './lib/cli-error.mjs';
import { codeCommands, planCommands, subscriptionCommands, userCommands } from './lib/commands/account-commands.mjs';
import { channelCommands } from './lib/commands/channel-commands.mjs';
import { groupCommands } from './lib/commands/group-commands.mjs';
import { keyCommands } from './lib/commands/key-commands.mjs';
import { logsCommand } from './lib/commands/logs-command.mjs';
import { priceCommands } from './lib/commands/price-commands.mjs';
import { usageText } from './lib/usage-text.mjs';

/** @type {Record<string, import('./lib/command.mjs').Noun>} */
const NOUNS = {
  group: groupCommands,
  channel: channelCommands,
  key: keyCommands,
  price: priceCommands,
  user: userCommands,
  plan: planCommands,
  subscription: subscriptionCommands,
  code: codeCommands,
};

/** @type {Record<string, { type: 'string' | 'boolean', short?: string }>} */
const GLOBAL_OPTIONS = { json: { type: 'boolean' }, url: { type: 'string' }, help: { type: 'boolean', short: 'h' } };

/** @param {string[]} argv @param {NodeJS.ProcessEnv} env */
async function main(argv, env) {
  const help = usageText(NOUNS, logsCommand);
  const { leading, command } = splitLeadingOptions(argv);
  argv = [...command, ...leading];
  const [first, second] = argv;
  if (first === undefined || first === 'help' || first === '--help' || first === '-h') {
    process.stdout.write(help);
    return 0;
  }

  let verb;
  let rest;
  if (first === 'logs') {
    verb = logsCommand;
    rest = argv.slice(1);
  } else {
    const noun = NOUNS[first];
    if (!noun) throw usageError(`unknown command "${first}"; run \`switchyard help\` for the list`);
    verb = second === undefined ? undefined : noun.verbs[second];
    if (!verb) {
      const verbs = Object.keys(noun.verbs).join(', ');
      throw usageError(`${second === undefined ? 'missing' : `unknown`} ${first} command${second ? ` "${second}"` : ''}; use one of: ${verbs}`);
    }
    rest = argv.slice(2);
  }

  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: { ...GLOBAL_OPTIONS, ...verb.options }, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageError(`${/** @type {Error} */ (error).message.replace(/\. To specify a positional.*$/s, '')}\nusage: switchyard ${verb.usage}`);
  }
  if (parsed.values.help) {
    process.stdout.write(`usage: switchyard ${verb.usage}\n  ${verb.summary}\n`);
    return 0;
  }

  const url = /** @type {string | undefined} */ (parsed.values.url) ?? env.SWITCHYARD_URL ?? 'http://127.0.0.1:8080';
  const client = createAdminClient({ url, token: env.GATEWAY_ADMIN_TOKEN });
  const result = await verb.run({ client, values: parsed.values, positionals: parsed.positionals });
  process.stdout.write(parsed.values.json ? `${JSON.stringify(result.json, null, 2)}\n` : result.text);
  return result.exitCode ?? 0;
}

/**
 * `switchyard --url http://gw:8080 key list` as well as `switchyard key list --url …`: global
 * options given before the command are moved after it, where the parser reads them.
 * @param {string[]} argv
 */
function splitLeadingOptions(argv) {
  /** @type {string[]} */
  const leading = [];
  let index = 0;
  while (index < argv.length && argv[index].startsWith('--') && argv[index] !== '--help') {
    const [name] = argv[index].slice(2).split('=', 1);
    const option = GLOBAL_OPTIONS[name];
    if (!option) throw usageError(`unknown option "${argv[index]}" before the command; global options are --url URL and --json`);
    const takesValue = option.type === 'string' && !argv[index].includes('=');
    leading.push(...argv.slice(index, index + (takesValue ? 2 : 1)));
    index += takesValue ? 2 : 1;
  }
  return { leading, command: argv.slice(index) };
}

main(process.argv.slice(2), process.env).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    if (error instanceof CliError) {
      process.stderr.write(`switchyard: ${error.message}\n`);
      process.exitCode = error.exitCode;
    } else {
      process.stderr.write(`switchyard: unexpected failure: ${error?.stack ?? error}\n`);
      process.exitCode = 1;
    }
  },
);
