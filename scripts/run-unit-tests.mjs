#!/usr/bin/env node
// `npm run test:unit`: the unit tests beside the source (src/**/*.test.ts: codecs, billing maths,
// parsers, the relay's pieces over fakes) in ONE process, in seconds: no gateway, database, Redis or
// CLI client is needed (`npm test` installs the CLI clients and runs everything, each file in its
// own process). Pass substrings to run a subset: `npm run test:unit -- anthropic`.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

function findTests(directory) {
  const found = [];
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) found.push(...findTests(path));
    else if (name.endsWith('.test.ts')) found.push(path);
  }
  return found;
}

const filters = process.argv.slice(2);
const files = findTests('src')
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort();
if (files.length === 0) {
  console.error('no unit test files matched');
  process.exit(1);
}
// One process imports every file: node:test runs what they register when the imports are done.
const entry = files.map((file) => `await import(${JSON.stringify(pathToFileURL(file).href)});`).join('\n');
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test-reporter=dot', '--input-type=module', '--eval', entry], { stdio: 'inherit' });
process.exit(result.status ?? 1);
