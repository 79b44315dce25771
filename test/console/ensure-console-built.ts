import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CONSOLE_DIRECTORY = fileURLToPath(new URL('../../console/', import.meta.url));
const DIST = `${CONSOLE_DIRECTORY}dist`;

/**
 * `npm ci` builds the console (root postinstall); a working tree where that never ran builds it
 * here once, so the tests do not depend on someone remembering.
 */
export function ensureConsoleBuilt(): string {
  if (!existsSync(`${DIST}/index.html`)) {
    if (!existsSync(`${CONSOLE_DIRECTORY}node_modules`)) {
      execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: CONSOLE_DIRECTORY, stdio: 'inherit' });
    }
    execFileSync('npm', ['run', 'build'], { cwd: CONSOLE_DIRECTORY, stdio: 'inherit' });
  }
  return DIST;
}
