import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { ConfigError } from './config-error.ts';
import { parseConfigFile } from './read-config-file.ts';

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected ConfigError, got ${String(error)}`);
    return [...error.problems];
  }
  assert.fail('expected a ConfigError');
}

describe('parseConfigFile', () => {
  test('${NAME} is replaced in string values, $${ is a literal ${, YAML structure is not affected', () => {
    const file = parseConfigFile(
      [
        'channels:',
        '  - name: main',
        '    provider: openai',
        '    baseUrl: https://${HOST}/v1',
        '    apiKey: ${SECRET}',
        '    models: [gpt-4o]',
        '    modelMap: { gpt-4o: "$${literal}" }',
      ].join('\n'),
      { HOST: 'api.example.com', SECRET: 'sk-with: colon # and hash' },
    );
    const channel = file.channels?.[0];
    assert.equal(channel?.baseUrl, 'https://api.example.com/v1');
    assert.equal(channel?.apiKey, 'sk-with: colon # and hash');
    assert.deepEqual(channel?.modelMap, { 'gpt-4o': '${literal}' });
  });

  test('an unset variable is an error naming it and where it is used', () => {
    const problems = problemsOf(() => parseConfigFile('keys:\n  - name: a\n    key: ${ALICE_KEY}\n  - name: b\n    key: ${BOB_KEY}\n', { BOB_KEY: 'x' }));
    assert.deepEqual(problems, ['keys[0].key: environment variable ALICE_KEY is not set']);
  });

  test('validation errors name the path and what is expected, all at once', () => {
    const problems = problemsOf(() =>
      parseConfigFile(
        [
          'channels:',
          '  - name: ok',
          '    provider: openai',
          '    baseUrl: https://api.openai.com/v1',
          '    apiKey: sk-x',
          '    models: [gpt-4o]',
          '  - name: bad',
          '    provider: mistral',
          '    baseUrl: ftp://host',
          '    models: []',
          '    prioirty: 3',
          'keys:',
          '  - name: short',
          '    key: sk-short',
          '    expiresAt: 31/12/2026',
          '    balance: -1',
          '    allowedIps: [10.0.0.0/99]',
          'prices:',
          '  - model: m',
          '    input: "1"',
          '    output: 2',
          '  - model: m',
          '    input: 1',
          '    output: 2',
        ].join('\n'),
        {},
      ),
    );
    const expected = [
      'channels[1]: unknown field "prioirty"',
      'channels[1].provider: must be one of openai, anthropic, gemini, azure, vertex, bedrock, cohere, jina',
      'channels[1].baseUrl: must be an http(s) URL',
      'channels[1].models: needs at least one model',
      'keys[0].key: must start with "sk-" and be at least 20 characters',
      'keys[0].expiresAt: must be an ISO 8601 date or date-time with a zone (e.g. 2030-01-01 or 2030-01-01T00:00:00Z), or epoch milliseconds',
      'keys[0].balance: must not be negative',
      'keys[0].allowedIps[0]: must be an IP address or CIDR (e.g. 203.0.113.7, 203.0.113.0/24 or 2001:db8::/32), not "10.0.0.0/99"',
      'prices[0].input: must be a number of USD per million tokens',
    ];
    for (const problem of expected) assert.ok(problems.includes(problem), `missing "${problem}" in\n${problems.join('\n')}`);
  });

  test('a channel needs exactly one of apiKey and apiKeys; names must be unique', () => {
    const channel = (extra: string, name = 'c') => `  - name: ${name}\n    provider: gemini\n    baseUrl: https://g.example\n    models: [m]\n${extra}`;
    assert.deepEqual(
      problemsOf(() => parseConfigFile(`channels:\n${channel('')}`, {})),
      ['channels[0].apiKey: is required: the upstream secret (apiKey, or apiKeys for several)'],
    );
    assert.deepEqual(
      problemsOf(() => parseConfigFile(`channels:\n${channel('    apiKey: a\n    apiKeys: [b]\n')}`, {})),
      ['channels[0].apiKeys: give either apiKey or apiKeys, not both'],
    );
    assert.deepEqual(
      problemsOf(() => parseConfigFile(`channels:\n${channel('    apiKey: a\n')}${channel('    apiKey: b\n')}`, {})),
      ['channels[1].name: duplicate name "c"'],
    );
  });

  test('broken YAML and unknown top-level sections are reported', () => {
    assert.equal(problemsOf(() => parseConfigFile('groups: [', {})).length, 1);
    assert.deepEqual(
      problemsOf(() => parseConfigFile('group:\n  - name: x\n', {})),
      ['(top level): unknown field "group"'],
    );
  });

  test('an empty file is an empty configuration', () => {
    assert.deepEqual(parseConfigFile('', {}), {});
    assert.deepEqual(parseConfigFile('# only comments\n', {}), {});
  });

  test('the example file at the repository root is valid', () => {
    const text = readFileSync(new URL('../../switchyard.example.yaml', import.meta.url), 'utf8');
    const env = Object.fromEntries([...text.matchAll(/\$\{([A-Z0-9_]+)\}/g)].map((match) => [match[1]!, `sk-${match[1]!.toLowerCase()}-0123456789abcdef`]));
    const file = parseConfigFile(text, env);
    assert.equal(file.channels?.length, 8);
    assert.equal(file.keys?.[0]?.expiresAt, Date.parse('2026-12-31T23:59:59Z'));
  });
});
