import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The real command-line clients live in test/clients (their own lockfile, installed by
 * `npm test` through scripts/install-test-clients.mjs), not in the project's dependencies.
 */
export const CLI_BIN = join(process.cwd(), 'test', 'clients', 'node_modules', '.bin');

/** Fails the test file early with the fix when the clients are not installed. */
export function requireTestClients(): void {
  if (!existsSync(join(CLI_BIN, 'claude'))) {
    throw new Error('The test clients are not installed: run `npm test`, or `npm run install:test-clients` once before running this file alone.');
  }
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs one CLI with stdin closed and a clean environment; kills it after `timeoutMs`. `binDir`:
 * another install of the clients (`npm run compat` installs the newest ones elsewhere).
 */
export function runCli(command: string, args: string[], env: Record<string, string>, cwd: string, timeoutMs: number, binDir = CLI_BIN): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(binDir, command), args, {
      cwd,
      env: { PATH: process.env.PATH ?? '', LANG: 'C.UTF-8', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
