#!/usr/bin/env node
// Runs every *.test.ts under src/, test/ and bench/ (pure bench logic only: the bench's own dependencies are not installed in CI) with Node's own test runner (TypeScript through tsx).
// Node 20's runner has no glob support, so the files are listed here. Pass paths or substrings
// to run a subset: `npm test -- anthropic`.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function findTests(directory) {
  const found = [];
  for (const name of readdirSync(directory)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(directory, name);
    if (statSync(path).isDirectory()) found.push(...findTests(path));
    else if (name.endsWith('.test.ts')) found.push(path);
  }
  return found;
}

const filters = process.argv.slice(2);
const files = ['src', 'test', 'bench']
  .flatMap((root) => findTests(root))
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort();

if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}

const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
