import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ADMIN_TOKEN } from '../helpers/gateway-harness.ts';
import { PASSWORD, startPaymentWorld, type PaymentWorld } from '../payments/payment-harness.ts';
import { launchChromium, type Browser, type Page } from './browser.ts';
import { ensureConsoleBuilt } from './ensure-console-built.ts';

const DAY = 86_400_000;

/**
 * Money in, in Chromium against the Stripe and Epay simulators: a customer tops up through the
 * simulator's hosted checkout (webhook → wallet credited), the operator refunds part of it in the
 * console, the printable statement shows both; the operator's payment settings keep secrets
 * write-only, promotions are created and deleted; an invitee tops up in a browser of their own, the
 * inviter sees the rebate held then released, and its withdrawal is approved and paid.
 */
describe('payments in the console (Chromium)', { timeout: 240_000 }, () => {
  let world: PaymentWorld;
  let browser: Browser;

  before(async () => {
    ensureConsoleBuilt();
    world = await startPaymentWorld();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await world?.close();
  });

  const newPage = async (): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: world.harness.url, locale: 'en-US' });
    context.setDefaultTimeout(15_000);
    return context.newPage();
  };
  const signIn = async (page: Page, radio: number, login: string, secret: string) => {
    await page.goto('/console/?lang=en');
    await page.locator('input[name=role]').nth(radio).check();
    if (login) await page.locator('input[name=login]').fill(login);
    await page.locator('input[name=secret]').fill(secret);
    await page.locator('input[name=secret]').press('Enter');
    await page.locator('header.topbar').waitFor();
  };

  /** Tops up on the Top-up page through the Stripe simulator's hosted checkout; waits for the order row to say credited. */
  const topUpThroughCheckout = async (page: Page, amount: string): Promise<string> => {
    await page.goto('/console/orders?lang=en');
    await page.locator('[data-top-up-form] input[name=amount]').fill(amount);
    await page.locator('[data-top-up-form] button[type=submit]').click();
    await page.waitForURL(/\/c\/pay\//);
    await page.locator('button[type=submit]').click();
    await page.waitForURL(/\/console\/orders\?order=/);
    const orderId = new URL(page.url()).searchParams.get('order') ?? '';
    await page.locator(`[data-order="${orderId}"] [data-status]`, { hasText: 'credited' }).waitFor();
    return orderId;
  };

  test('top up through the Stripe checkout, the operator refunds part in the console, the receipt and the statement show both', async () => {
    const user = await world.harness.admin('POST', '/users', { name: 'journey-ann', email: 'ann@example.com', password: PASSWORD }, 201);
    const customer = await newPage();
    await signIn(customer, 0, 'ann@example.com', PASSWORD);
    const orderId = await topUpThroughCheckout(customer, '20');
    assert.deepEqual(await world.balanceOf(user.id), { balance: 20, debtUsd: 0 }, 'the webhook credited the wallet once');

    const operator = await newPage();
    await signIn(operator, 2, '', ADMIN_TOKEN);
    await operator.goto('/console/orders?lang=en');
    operator.once('dialog', (dialog) => void dialog.accept('5'));
    await operator.locator(`[data-order="${orderId}"] button`, { hasText: 'Refund' }).click();
    await operator.locator(`[data-order="${orderId}"]`, { hasText: 'partially_refunded' }).waitFor();
    assert.deepEqual(await world.balanceOf(user.id), { balance: 15, debtUsd: 0 });
    assert.equal(world.stripe.refunds.length, 1, 'the refund went to Stripe');

    // The receipt: the order row links to the order's printable sheet on the Statement page.
    await customer.goto('/console/orders?lang=en');
    await customer.locator(`[data-order="${orderId}"] [data-receipt-link]`).click();
    const receipt = customer.locator(`[data-receipt="${orderId}"]`);
    await receipt.waitFor();
    await receipt.locator('[data-paid]', { hasText: /\$20\.00 \(20\.00 USD\)/ }).waitFor();
    await receipt.locator('[data-credit]', { hasText: /\$20\.00/ }).waitFor();
    await receipt.locator('[data-refunded]', { hasText: /-\$5\.00/ }).waitFor();
    await receipt.locator('[data-status]', { hasText: /partially_refunded/ }).waitFor();
    await receipt.filter({ hasText: /Card \(Stripe\)/ }).waitFor();

    // A plan sold at checkout, bought through the same hosted checkout: it starts when credited.
    await world.harness.admin('POST', '/plans', { name: 'journey-pro', group: 'default', durationDays: 30, quota: { monthly: 50 }, price: 9 }, 201);
    await customer.goto('/console/orders?lang=en');
    await customer.locator('[data-plan=journey-pro] button').click();
    await customer.waitForURL(/\/c\/pay\//);
    await customer.locator('h1', { hasText: /9\.00 USD/ }).waitFor();
    await customer.locator('button[type=submit]').click();
    await customer.waitForURL(/\/console\/orders\?order=/);
    const planOrder = new URL(customer.url()).searchParams.get('order') ?? '';
    await customer.locator(`[data-order="${planOrder}"] [data-status]`, { hasText: 'credited' }).waitFor();
    const subscriptions = (await world.harness.admin('GET', `/subscriptions?user=${user.id}`)).data as Array<{ status: string }>;
    assert.deepEqual(
      subscriptions.map((entry) => entry.status),
      ['active'],
    );

    await customer.goto('/console/statement?lang=en');
    const sheet = customer.locator('[data-statement]');
    await sheet.waitFor();
    await sheet.locator('[data-top-ups]', { hasText: /\$20\.00/ }).waitFor();
    await sheet.locator('[data-refunds]', { hasText: /-\$5\.00/ }).waitFor();
    await sheet.locator('[data-closing]', { hasText: /\$15\.00/ }).waitFor();
    await sheet.filter({ hasText: /Plans bought\s*\$9\.00/ }).waitFor();
    await customer.emulateMedia({ media: 'print' });
    assert.equal(await customer.locator('header.topbar').isVisible(), false, 'the printed page is the statement alone');
    assert.equal(await customer.locator('[data-print]').isVisible(), false);
    assert.equal(await sheet.isVisible(), true);
  });

  test('payment settings keep secrets write-only; promotions are created and deleted', async () => {
    const operator = await newPage();
    await signIn(operator, 2, '', ADMIN_TOKEN);
    await operator.goto('/console/payments?lang=en');
    const stripe = operator.locator('[data-provider=stripe]');
    await stripe.waitFor();
    const secretInput = stripe.locator('input[name=secretKey]');
    assert.equal(await secretInput.inputValue(), '', 'a stored secret is never put back into the page');
    assert.match((await secretInput.getAttribute('placeholder')) ?? '', /stored: …/);
    assert.ok(!(await operator.content()).includes(world.stripe.secretKey), 'the secret is nowhere in the page');
    const epay = operator.locator('[data-provider=epay]');
    await epay.locator('input[name=payType]').fill('wxpay');
    await epay.locator('button[type=submit]').click();
    await epay.getByRole('status').waitFor();
    const providers = (await world.harness.admin('GET', '/payment-providers')).data as Array<Record<string, unknown>>;
    const stored = providers.find((entry) => entry.name === 'epay');
    assert.equal(stored?.payType, 'wxpay');
    assert.equal(stored?.enabled, true, 'the key left empty kept the stored one, so Epay stays enabled');

    const rules = operator.locator('[data-payment-rules]');
    await rules.locator('input[name=ratePercent]').fill('12');
    await rules.locator('input[name=withdrawalsEnabled]').check();
    await rules.locator('button[type=submit]').click();
    await rules.getByRole('status').waitFor();
    const settings = await world.harness.admin('GET', '/account-settings');
    assert.deepEqual(
      [settings.referral.ratePercent, settings.referral.withdrawalsEnabled, settings.topUp.bonusTiers],
      [12, true, [{ fromUsd: 100, bonusPercent: 10 }]],
    );

    await operator.goto('/console/promotions?lang=en');
    const form = operator.locator('[data-promotion-form]');
    await form.locator('input[name=code]').fill('SPRING10');
    await form.locator('input[name=value]').fill('10');
    await form.locator('input[name=usageLimit]').fill('50');
    await form.locator('button[type=submit]').click();
    await operator.locator('[data-promotion=SPRING10]', { hasText: '10%' }).waitFor();
    operator.once('dialog', (dialog) => void dialog.accept());
    await operator.locator('[data-promotion=SPRING10] button').click();
    await operator.locator('[data-promotion=SPRING10]').waitFor({ state: 'detached' });
    assert.deepEqual((await world.harness.admin('GET', '/promotion-codes')).data, []);
  });

  test('an invitee tops up through the Stripe checkout; after the holding period the inviter sees the rebate released, withdraws it, the operator pays it', async () => {
    await world.harness.admin('PATCH', '/account-settings', { referral: { ratePercent: 10, holdDays: 7, withdrawalsEnabled: true, withdrawMinUsd: 1 } });
    const inviter = await world.account('journey-cat');
    const code = (await inviter.json('GET', '/referral')).code as string;
    const dan = await world.account('journey-dan', { referralCode: code });

    // The invitee, in a browser of their own, pays through the hosted checkout like anyone else.
    const invitee = await newPage();
    await signIn(invitee, 0, 'journey-dan', PASSWORD);
    await topUpThroughCheckout(invitee, '30');
    assert.deepEqual(await world.balanceOf(dan.id), { balance: 30, debtUsd: 0 });

    const early = await newPage();
    await signIn(early, 0, 'journey-cat', PASSWORD);
    await early.goto('/console/orders?lang=en');
    const held = early.locator('[data-referral]');
    await held.locator('[data-rebate=pending]', { hasText: '$3.00' }).waitFor();
    await held.filter({ hasText: /Invited: 1 · pending \$3\.00 · credited \$0\.00/ }).waitFor();
    await held.locator('[data-rebate=pending]', { hasText: /held until/ }).waitFor();
    assert.equal((await world.balanceOf(inviter.id)).balance, 0, 'nothing is credited while the rebate is held');

    world.advanceClock(8 * DAY);
    // The portal session (12 h) has lapsed with the clock: the inviter signs in again.
    const customer = await newPage();
    await signIn(customer, 0, 'journey-cat', PASSWORD);
    await customer.goto('/console/orders?lang=en');
    const referral = customer.locator('[data-referral]');
    await referral.locator('[data-rebate=credited]', { hasText: '$3.00' }).waitFor();
    await referral.locator('[data-rebate=credited]', { hasText: /released/ }).waitFor();
    await referral.filter({ hasText: /pending \$0\.00 · credited \$3\.00/ }).waitFor();
    assert.equal((await world.balanceOf(inviter.id)).balance, 3, 'the released rebate is in the wallet');
    const card = customer.locator('[data-withdraw]');
    await card.locator('input[name=withdrawAmount]').fill('3');
    await card.locator('input[name=payoutTo]').fill('alipay: cat@example.com');
    await card.locator('button[type=submit]').click();
    await card.locator('[data-withdrawals] [data-status]', { hasText: 'pending' }).waitFor();

    const operator = await newPage();
    await signIn(operator, 2, '', ADMIN_TOKEN);
    await operator.goto('/console/payouts?lang=en');
    const row = operator.locator('[data-payouts] tbody tr', { hasText: 'alipay: cat@example.com' });
    await row.locator('[data-decision=approve]').click();
    await operator.locator('select[name=status]').selectOption('');
    await row.locator('[data-status]', { hasText: 'approved' }).waitFor();
    operator.once('dialog', (dialog) => void dialog.accept('ALI-2026-1'));
    await row.locator('[data-decision=mark-paid]').click();
    await row.locator('[data-status]', { hasText: 'paid' }).waitFor();

    await customer.reload();
    await customer.locator('[data-withdrawals] [data-status]', { hasText: 'paid' }).waitFor();
    assert.equal((await world.balanceOf(inviter.id)).balance, 0);
  });
});
