import type { User } from '../domain/user.ts';
import type { Store } from '../store/store.ts';
import type { Statement } from '../domain/statement.ts';
import { csvField, microsText } from './orders-csv.ts';

/** `YYYY-MM` as the UTC month's [from, to) in epoch ms, or undefined when it is not a month. */
export function monthRange(month: string): { from: number; to: number } | undefined {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!match) return undefined;
  const [year, index] = [Number(match[1]), Number(match[2]) - 1];
  return { from: Date.UTC(year, index, 1), to: Date.UTC(year, index + 1, 1) };
}

/**
 * One account's month: top-ups and bonuses (credited orders), plans bought, referral rebates
 * credited (net of claw-backs), refunds taken back, the operator's other adjustments, usage by
 * model, and the wallet's closing balance — today's balance with everything after the month
 * undone (adjustments after it subtracted, wallet usage after it added back).
 */
export async function buildStatement(
  store: Store,
  user: User,
  month: string,
  range: { from: number; to: number },
  balanceNow: number,
  now: number,
): Promise<Statement> {
  const within = (time: number | null) => time !== null && time >= range.from && time < range.to;
  const orders = (await store.orders.list({ userId: user.id, limit: 10_000 })).filter((order) => within(order.creditedAt));
  const adjustments = await store.walletAdjustments.listForUser(user.id, 100_000);
  const inMonth = adjustments.filter((entry) => within(entry.createdAt));
  const sumOf = (pick: (note: string) => boolean) => inMonth.filter((entry) => pick(entry.note)).reduce((total, entry) => total + entry.amountMicros, 0);
  const isRebate = (note: string) => note.startsWith('referral rebate');
  const isRefund = (note: string) => /^order \S+ (refunded|partially refunded)/.test(note);
  const isOrder = (note: string) => note.startsWith('order ');
  const isWithdrawal = (note: string) => note.startsWith('withdrawal ');
  const usageRows = await store.usage.aggregate({ from: range.from, to: range.to, by: 'model', userId: user.id });
  const byModel = new Map<string, { requests: number; costMicros: number }>();
  for (const row of usageRows) {
    const entry = byModel.get(row.subject ?? '(none)') ?? { requests: 0, costMicros: 0 };
    byModel.set(row.subject ?? '(none)', { requests: entry.requests + row.requests, costMicros: entry.costMicros + row.costMicros });
  }
  const after = adjustments.filter((entry) => entry.createdAt >= range.to).reduce((total, entry) => total + entry.amountMicros, 0);
  const walletUsageAfter =
    range.to < now
      ? (await store.usage.aggregate({ from: range.to, to: now, by: 'payer', userId: user.id }))
          .filter((row) => row.subject === `wallet:${user.id}`)
          .reduce((total, row) => total + row.costMicros, 0)
      : 0;
  const usage = [...byModel].map(([model, entry]) => ({ model, ...entry })).sort((a, b) => b.costMicros - a.costMicros);
  return {
    month,
    topUpsMicros: orders.filter((order) => order.planId === null).reduce((total, order) => total + order.creditMicros - order.bonusMicros, 0),
    bonusesMicros: orders.reduce((total, order) => total + order.bonusMicros, 0),
    plansMicros: orders.filter((order) => order.planId !== null).reduce((total, order) => total + order.amountMicros, 0),
    rebatesMicros: sumOf(isRebate),
    refundsMicros: sumOf(isRefund),
    withdrawalsMicros: sumOf(isWithdrawal),
    adjustmentsMicros: sumOf((note) => !isRebate(note) && !isOrder(note) && !isWithdrawal(note)),
    usage,
    usageMicros: usage.reduce((total, entry) => total + entry.costMicros, 0),
    closingBalanceMicros: balanceNow - after + walletUsageAfter,
  };
}

/** The statement as CSV: one `section,item,requests,amount_usd` line per figure, exact decimals. */
export function statementCsv(statement: Statement): string {
  const line = (section: string, item: string, requests: string, micros: number) => [section, item, requests, microsText(micros)].map(csvField).join(',');
  const lines = [
    'section,item,requests,amount_usd',
    line('money in', 'top-ups', '', statement.topUpsMicros),
    line('money in', 'bonuses', '', statement.bonusesMicros),
    line('money in', 'plans bought', '', statement.plansMicros),
    line('money in', 'referral rebates', '', statement.rebatesMicros),
    line('money out', 'refunds taken back', '', statement.refundsMicros),
    line('money out', 'rebate withdrawals', '', statement.withdrawalsMicros),
    line('money out', 'operator adjustments', '', statement.adjustmentsMicros),
    ...statement.usage.map((entry) => line('usage', entry.model, String(entry.requests), entry.costMicros)),
    line('usage', 'total', '', statement.usageMicros),
    line('balance', `closing ${statement.month}`, '', statement.closingBalanceMicros),
  ];
  return `${lines.join('\r\n')}\r\n`;
}
