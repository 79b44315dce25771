/**
 * The help screen, built from the commands themselves so it cannot drift from them.
 * @param {Record<string, import('./command.mjs').Noun>} nouns
 * @param {import('./command.mjs').Verb} logs
 */
export function usageText(nouns, logs) {
  const lines = ['switchyard: manage a Switchyard gateway through its admin API', '', 'Usage: switchyard <command> [options]', '', 'Commands:'];
  for (const noun of Object.values(nouns)) {
    for (const verb of Object.values(noun.verbs)) lines.push(`  ${verb.usage}`, `      ${verb.summary}`);
  }
  lines.push(`  ${logs.usage}`, `      ${logs.summary}`);
  lines.push(
    '',
    'Options for every command:',
    '  --json         print the API answer as JSON instead of a table',
    '  --url URL      the gateway (default: $SWITCHYARD_URL or http://127.0.0.1:8080)',
    '  -h, --help     show this help',
    '',
    'Environment:',
    '  SWITCHYARD_URL        the gateway address',
    '  GATEWAY_ADMIN_TOKEN   the admin token (printed by the gateway on its first start)',
    '',
    'Example:',
    '  switchyard key create --group default --name alice',
    '',
  );
  return lines.join('\n');
}
