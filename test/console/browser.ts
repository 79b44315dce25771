import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, CDPSession, Page } from '../../console/node_modules/playwright-core/index.d.ts';

export type { Browser, CDPSession, Page };

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

/**
 * Follows a link of the console's page list. At phone width the list is folded behind the Menu
 * button; open it first, as a person would.
 */
export async function followPageLink(page: Page, label: string): Promise<void> {
  const toggle = page.locator('.menu-toggle');
  const link = page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: label, exact: true });
  // The menu folds itself after each navigation, a render after the URL changed: a check made in
  // between sees it still open. So open it whenever the link is not visible, and try again.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if ((await toggle.isVisible()) && !(await link.isVisible())) {
      if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
      await link.waitFor({ state: 'visible', timeout: 2_000 }).catch(() => undefined);
    }
    if (await link.isVisible()) break;
  }
  await link.click();
}

/** How far the page scrolls sideways (0 when it fits the window), and what sticks out. */
export async function sidewaysOverflow(page: Page): Promise<{ overflow: number; culprits: string[] }> {
  return page.evaluate(`(() => {
    const overflow = document.documentElement.scrollWidth - window.innerWidth;
    const culprits = [];
    if (overflow > 0) {
      for (const element of document.querySelectorAll('body *')) {
        const box = element.getBoundingClientRect();
        if (box.right > window.innerWidth + 1 && !element.closest('.table-wrap') && !element.closest('pre')) {
          culprits.push(element.tagName.toLowerCase() + (element.className ? '.' + String(element.className).split(' ').join('.') : '') + ' right=' + Math.round(box.right));
        }
      }
    }
    return { overflow, culprits: culprits.slice(0, 8) };
  })()`);
}
