#!/usr/bin/env node
// Installs the command-line clients the end-to-end tests drive (Claude Code, Codex, Gemini CLI;
// ~900 MB) into test/clients/, from that package's own lockfile. They are not dependencies of the
// gateway, so `npm ci && npm start` stays light; `npm test` (and so .ci/run) runs this first.
// Re-installs only when test/clients/package-lock.json changed since the last install.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const directory = fileURLToPath(new URL('../test/clients/', import.meta.url));
const stamp = join(directory, 'node_modules', '.switchyard-lock-sha256');
const lockHash = createHash('sha256')
  .update(readFileSync(join(directory, 'package-lock.json')))
  .digest('hex');

if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === lockHash) process.exit(0);

console.log('Installing the test clients (Claude Code, Codex, Gemini CLI) into test/clients/ …');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: directory, stdio: 'inherit' });
if (result.status !== 0) {
  console.error('Installing the test clients failed (see above); the CLI end-to-end tests need them.');
  process.exit(result.status ?? 1);
}
writeFileSync(stamp, `${lockHash}\n`);
