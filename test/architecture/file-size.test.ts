import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

// "No source file over 300 lines" (docs/architecture.md): a file that long holds more than one
// job. Tests beside the code are exempt (a table of cases is long by nature), and so is data the
// code reads, each listed here with its reason.
const MAX_LINES = 300;
const DATA_TABLES: Record<string, string> = {
  'src/ledger/default-price-catalogue.json': 'the shipped price catalogue: one entry per model, read by load-price-catalogue.ts',
};

const root = process.cwd();

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.test.ts') ? [] : [relative(root, path)];
  });
}

test(`no source file under src/ passes ${MAX_LINES} lines (tests and the listed data tables aside)`, () => {
  const tooLong = sourceFiles(join(root, 'src'))
    .filter((file) => DATA_TABLES[file] === undefined)
    .map((file) => ({ file, lines: readFileSync(join(root, file), 'utf8').split('\n').length - 1 }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ file, lines }) => `${file}: ${lines} lines`);
  assert.deepEqual(tooLong, [], 'split these by concern (one module, one job)');
});

test('every listed data table exists (the exemptions do not outlive their files)', () => {
  for (const file of Object.keys(DATA_TABLES)) assert.ok(existsSync(join(root, file)), `${file} is listed in DATA_TABLES but does not exist`);
});
