import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from '../../console/node_modules/playwright-core/index.d.ts';

export type { Browser, Page };

export const CHROMIUM = '/usr/bin/chromium';

/**
 * playwright-core belongs to the console package (installed by `npm run build:console`), so the
 * gateway's own dependencies stay as they are; it drives Debian's Chromium, never a downloaded one.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`The console's browser tests need Chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run does this).`);
  }
  const require = createRequire(new URL('../../console/package.json', import.meta.url));
  const { chromium } = require('playwright-core') as typeof import('../../console/node_modules/playwright-core/index.d.ts');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Screenshots go to console/screenshots/ (committed) when CONSOLE_SCREENSHOTS=1
 * (`npm run screenshots`); otherwise to a temporary folder, so a plain `npm test` never
 * rewrites committed files with new timestamps.
 */
export function screenshotDirectory(): string {
  if (process.env.CONSOLE_SCREENSHOTS === '1') {
    const directory = fileURLToPath(new URL('../../console/screenshots/', import.meta.url));
    mkdirSync(directory, { recursive: true });
    return directory;
  }
  return mkdtempSync(join(tmpdir(), 'switchyard-screenshots-'));
}
