import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ADMIN_TOKEN, startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { launchChromium, screenshotDirectory, type Browser, type Page } from './browser.ts';
import { ensureConsoleBuilt } from './ensure-console-built.ts';

const PASSWORD = 'correct horse battery staple';
const LANGUAGES = ['en', 'zh-CN'] as const;
const WIDTHS = [1280, 390] as const;
/** Each way in, the sign-in radio's position (account, admin, operator, key) and its pages. */
const ROLES = [
  {
    role: 'operator',
    radio: 2,
    pages: [
      '/',
      '/matrix',
      '/channels',
      '/keys',
      '/users',
      '/plans',
      '/subscriptions',
      '/codes',
      '/orders',
      '/payments',
      '/promotions',
      '/payouts',
      '/logs',
      '/connect',
      '/check',
      '/pricing',
      '/margin',
      '/audit',
      '/alerts',
      '/announcements',
      '/admins',
    ],
  },
  { role: 'account', radio: 0, pages: ['/', '/keys', '/redeem', '/orders', '/statement', '/usage', '/connect'] },
  { role: 'key', radio: 3, pages: ['/', '/connect', '/check'] },
] as const;

/**
 * Text that does not fit its box: an element whose content is wider than itself, unless it
 * scrolls or clips on purpose (tables in .table-wrap, code blocks, ellipsis cells).
 */
const OVERFLOWING_TEXT = `(() => {
  const found = [];
  for (const element of document.querySelectorAll('main *, header *')) {
    const style = getComputedStyle(element);
    if (style.display === 'inline' || style.display === 'none' || element.clientWidth <= 1) continue; // 1 px: a visually hidden label
    if (element.closest('.table-wrap, pre, code, select, canvas, .chart, .uplot, [role=img]')) continue;
    if (style.textOverflow === 'ellipsis' || ['auto', 'scroll'].includes(style.overflowX)) continue;
    if (![...element.childNodes].some((node) => node.nodeType === 3 && node.textContent.trim() !== '')) continue;
    if (element.scrollWidth > element.clientWidth + 1) {
      found.push(element.tagName.toLowerCase() + ' "' + element.textContent.trim().slice(0, 40) + '" ' + element.scrollWidth + '>' + element.clientWidth);
    }
  }
  return found.slice(0, 6);
})()`;

/**
 * Every console and portal page in English and Simplified Chinese, at desktop and phone width:
 * the page says it is in that language, its page list is in that language, and no text sticks
 * out of its box. Screenshots are kept with CONSOLE_SCREENSHOTS=1 (npm run screenshots).
 */
describe('the console and portal in both languages in Chromium', { timeout: 300_000 }, () => {
  let harness: Harness;
  let browser: Browser;
  let apiKey = '';
  const keepShots = process.env.CONSOLE_SCREENSHOTS === '1';
  const shots = keepShots ? screenshotDirectory() : '';

  before(async () => {
    ensureConsoleBuilt();
    harness = await startHarness();
    await harness.addChannel({ provider: 'openai', models: ['gpt-4o-mini'], groups: ['default'] });
    await harness.admin('POST', '/prices', { model: 'gpt-4o-mini', input: 100, output: 200 });
    await harness.admin('POST', '/users', { name: 'lin', email: 'lin@example.com', password: PASSWORD, balance: 5 });
    apiKey = (await harness.addKey()).key;
    // Something on the portal home and on the status page, so their screenshots show real content.
    await harness.admin('POST', '/announcements', { title: 'Maintenance on Sunday', body: 'The gateway restarts at 02:00 UTC for a minute.', audience: 'all' });
    for (let index = 0; index < 3; index += 1) {
      const answer = await fetch(`${harness.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
      });
      await answer.arrayBuffer();
    }
    await harness.admin('PATCH', '/account-settings', { statusPage: { enabled: true } });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await harness?.close();
  });

  const signIn = async (page: Page, radio: number, login: string, secret: string) => {
    await page.locator('input[name=role]').nth(radio).check();
    if (login) await page.locator('input[name=login]').fill(login);
    await page.locator('input[name=secret]').fill(secret);
    await page.locator('input[name=secret]').press('Enter');
    await page.locator('header.topbar').waitFor();
  };

  const checkPage = async (page: Page, language: string, what: string) => {
    await page.locator('main h1').first().waitFor();
    await page.waitForLoadState('networkidle');
    assert.equal(await page.evaluate<string>('document.documentElement.lang'), language, `${what}: <html lang>`);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      const overflowing = await page.evaluate<string[]>(OVERFLOWING_TEXT);
      assert.deepEqual(overflowing, [], `${what} at ${width} px: text wider than its box`);
      if (keepShots) await page.screenshot({ path: join(shots, `6x-${language}-${what.replace(/\W+/g, '-')}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: WIDTHS[0], height: 800 });
  };

  for (const language of LANGUAGES) {
    for (const { role, radio, pages } of ROLES) {
      test(`${language}: every ${role} page fits at ${WIDTHS.join(' and ')} px`, async () => {
        const context = await browser.newContext({ viewport: { width: WIDTHS[0], height: 800 }, baseURL: harness.url, locale: 'en-US' });
        context.setDefaultTimeout(15_000);
        const page = await context.newPage();
        await page.goto(`/console/?lang=${language}`);
        await checkPage(page, language, `${role}-sign-in`);
        const [login, secret] = role === 'operator' ? ['', ADMIN_TOKEN] : role === 'account' ? ['lin@example.com', PASSWORD] : ['', apiKey];
        await signIn(page, radio, login, secret);
        const links = await page.locator('#pages-nav a').allTextContents();
        if (language === 'zh-CN')
          assert.ok(
            links.every((text) => /[\u4e00-\u9fff]/.test(text)),
            `page list in Chinese: ${links.join(', ')}`,
          );
        for (const path of pages) {
          await page.goto(`/console${path}?lang=${language}`);
          await checkPage(page, language, `${role}${path === '/' ? '-home' : path.replace('/', '-')}`);
        }
        await context.close();
      });
    }
  }

  test('the public status page in both languages (server-rendered: ?lang, then Accept-Language)', async () => {
    for (const language of LANGUAGES) {
      const context = await browser.newContext({ viewport: { width: WIDTHS[0], height: 800 }, baseURL: harness.url, locale: language });
      const page = await context.newPage();
      await page.goto('/status');
      assert.equal(await page.evaluate<string>('document.documentElement.lang'), language, 'Accept-Language picks the page language');
      await page.getByRole('cell', { name: 'gpt-4o-mini' }).waitFor();
      assert.equal(await page.getByRole('columnheader').first().innerText(), language === 'en' ? 'Group' : '分组');
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
        assert.ok(overflow <= 1, `${language} status page at ${width} px: no sideways scrolling (${overflow} px)`);
        if (keepShots) await page.screenshot({ path: join(shots, `6x-${language}-status-page-${width}.png`), fullPage: true });
      }
      await context.close();
    }
  });

  test('the order: ?lang wins, then the saved choice, then the browser’s language', async () => {
    const context = await browser.newContext({ baseURL: harness.url, locale: 'zh-CN' });
    const page = await context.newPage();
    await page.goto('/console/');
    assert.equal(await page.evaluate<string>('document.documentElement.lang'), 'zh-CN', 'a Chinese browser gets Chinese');
    await page.locator('select.language-switcher').selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Switchyard console' }).waitFor();
    await page.goto('/console/');
    assert.equal(await page.evaluate<string>('document.documentElement.lang'), 'en', 'the saved choice beats the browser');
    await page.goto('/console/?lang=zh-CN');
    await page.getByRole('heading', { level: 1, name: 'Switchyard 控制台' }).waitFor();
    await context.close();
  });
});
