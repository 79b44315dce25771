import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { parse } from 'yaml';
import { envSchema } from '../../src/config/config-schema.ts';
import { CHANNEL_KINDS } from '../../src/domain/channel-kind.ts';
import { ADMIN_OPERATIONS } from '../../src/server/admin/admin-api-description.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
const METHOD = '(?:GET|POST|PATCH|DELETE)';

/** The README's text from a heading to the next heading of the same or a higher level. */
function section(heading: string): string {
  const start = README.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `README has a "${heading}" section`);
  const level = heading.split(' ')[0]!;
  const rest = README.slice(start + heading.length + 2);
  const next = rest.search(new RegExp(`^#{1,${level.length}} `, 'm'));
  return next < 0 ? rest : rest.slice(0, next);
}

/** `GET/PATCH /keys/:id` → ["GET /keys/:id", "PATCH /keys/:id"]. */
function operationsIn(cell: string): string[] {
  return [...cell.matchAll(new RegExp(`\`(${METHOD}(?:/${METHOD})*) (/[^\`\\s]*)\``, 'g'))].flatMap(([, methods, path]) =>
    methods!.split('/').map((method) => `${method} ${path}`),
  );
}

test('the README admin API table lists every registered /api/admin route once, and nothing else', () => {
  const rows = section('## Admin API')
    .split('\n')
    .filter((line) => line.startsWith('| `'));
  const listed = rows.flatMap((row) => operationsIn(row.split(' | ')[0]!));
  const duplicates = listed.filter((operation, index) => listed.indexOf(operation) !== index);
  assert.deepEqual(duplicates, [], 'each route appears in one row only');
  const registered = ADMIN_OPERATIONS.map((operation) => `${operation.method} ${operation.route.replace(/^\/api\/admin/, '')}`);
  assert.deepEqual(
    listed.filter((operation) => !registered.includes(operation)),
    [],
    'the table names only routes the gateway registers',
  );
  assert.deepEqual(
    registered.filter((operation) => !listed.includes(operation)),
    [],
    'every registered admin route is in the table',
  );
  // The channel row names every provider kind the API accepts.
  const channelRow = rows.find((row) => row.startsWith('| `POST /channels`'));
  assert.ok(channelRow);
  assert.match(channelRow, new RegExp(`provider: ${CHANNEL_KINDS.join('\\\\\\|')}`));
});

test('the README CLI command list is exactly what `switchyard help` offers', () => {
  const help = execFileSync(process.execPath, [resolve(ROOT, 'bin/switchyard.mjs'), 'help'], { encoding: 'utf8' });
  const offered = new Set(
    [...help.matchAll(/^ {2}([a-z]+)(?: ([a-z]+))?/gm)]
      .filter(([, noun]) => noun !== 'switchyard') // the example at the end
      .map(([, noun, verb]) => (verb && noun !== 'logs' ? `${noun} ${verb}` : noun!)),
  );
  const paragraph = section('### CLI');
  const commandsAt = paragraph.indexOf('Commands:');
  assert.ok(commandsAt >= 0);
  assert.equal(paragraph.indexOf('Commands:', commandsAt + 1), -1, 'one "Commands:" list');
  const text = paragraph.slice(commandsAt, paragraph.indexOf('Global options', commandsAt));
  const listed = new Set(
    [...text.matchAll(/`([a-z]+)( [a-z|]+)?/g)].flatMap(([, noun, verbs]) =>
      noun === 'logs' || !verbs
        ? [noun!]
        : verbs
            .trim()
            .split('|')
            .map((verb) => `${noun} ${verb}`),
    ),
  );
  for (const option of ['create', 'update', 'revoke']) listed.delete(option); // `create --billing` and the like
  assert.deepEqual([...listed].filter((command) => !offered.has(command)).sort(), [], 'listed but not offered by the CLI');
  assert.deepEqual([...offered].filter((command) => !listed.has(command)).sort(), [], 'offered by the CLI but not listed');
});

test('the README configuration table names every variable the configuration reads', () => {
  const table = section('## Configuration');
  const named = new Set([...table.matchAll(/^\|([^|]+)\|/gm)].flatMap(([, cell]) => [...cell!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map(([, name]) => name!)));
  const read = Object.keys(envSchema.shape);
  assert.deepEqual(
    read.filter((name) => !named.has(name)),
    [],
    'variables missing from the README table',
  );
  assert.deepEqual(
    [...named].filter((name) => !read.includes(name)),
    [],
    'README variables the configuration does not read',
  );
});

test('every relative link in the README points at a file inside the repository', () => {
  const links = [...README.matchAll(/\]\((?!https?:|#|mailto:)([^)\s]+)\)/g)].map(([, target]) => target!.split('#')[0]!);
  assert.ok(links.length > 0);
  for (const target of links) {
    const path = resolve(ROOT, target);
    assert.ok(path.startsWith(ROOT), `${target} points outside the repository`);
    assert.ok(existsSync(path), `${target} does not exist`);
  }
  assert.doesNotMatch(README, /\.\.\/shared\//, 'no references to files outside the repository');
});

test('switchyard.example.yaml shows a channel of every provider kind', () => {
  const example = parse(readFileSync(resolve(ROOT, 'switchyard.example.yaml'), 'utf8')) as { channels: Array<{ provider: string }> };
  assert.deepEqual([...new Set(example.channels.map((channel) => channel.provider))].sort(), [...CHANNEL_KINDS].sort());
});
