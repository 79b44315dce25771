import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody, sendJson } from './read-request.ts';

interface Trade {
  params: Record<string, string>;
  tradeNo: string;
  status: 0 | 1;
  refundedFen: number;
}

/** The Epay MD5 signature, written out here from the protocol's rules (not imported from the gateway). */
function md5Sign(params: Record<string, string>, key: string): string {
  const names = Object.keys(params)
    .filter((name) => name !== 'sign' && name !== 'sign_type' && params[name] !== '')
    .sort();
  return createHash('md5')
    .update(names.map((name) => `${name}=${params[name]}`).join('&') + key)
    .digest('hex');
}
const fen = (money: string) => Math.round(Number(money) * 100);

/**
 * A local Epay (易支付) site enforcing its rules: submit.php checks the merchant, the required
 * fields, the amount's format and the MD5 signature, and refuses an out_trade_no reused with
 * another amount; a paid trade notifies notify_url with signed parameters until it answers
 * `success`; api.php answers act=order and act=refund only with the merchant's key, and refunds
 * no more than was paid.
 */
export async function startEpaySimulator() {
  const pid = '1001';
  const key = randomBytes(16).toString('hex');
  const trades = new Map<string, Trade>();
  const notifications: Array<{ params: Record<string, string>; answer: string }> = [];
  let url = '';

  const submit = (params: Record<string, string>): string | undefined => {
    if (params.pid !== pid) return '商户不存在 (unknown pid)';
    for (const field of ['type', 'out_trade_no', 'notify_url', 'return_url', 'name', 'money', 'sign']) if (!params[field]) return `缺少参数 ${field}`;
    if (!/^\d+(\.\d{1,2})?$/.test(params.money ?? '') || fen(params.money ?? '0') <= 0) return '金额不合法 (bad money)';
    if (params.sign !== md5Sign(params, key)) return '签名校验失败 (bad sign)';
    const existing = trades.get(params.out_trade_no ?? '');
    if (existing && existing.params.money !== params.money) return '订单号重复 (out_trade_no reused)';
    if (!existing) trades.set(params.out_trade_no ?? '', { params, tradeNo: `2026${randomBytes(8).toString('hex')}`, status: 0, refundedFen: 0 });
    return undefined;
  };

  const notifyParams = (trade: Trade, overrides: Record<string, string> = {}) => {
    const params: Record<string, string> = {
      pid,
      trade_no: trade.tradeNo,
      out_trade_no: trade.params.out_trade_no ?? '',
      type: trade.params.type ?? '',
      name: trade.params.name ?? '',
      money: trade.params.money ?? '',
      trade_status: 'TRADE_SUCCESS',
      ...overrides,
    };
    return { ...params, sign: md5Sign(params, key), sign_type: 'MD5' };
  };
  const notify = async (trade: Trade, params: Record<string, string>) => {
    const response = await fetch(`${trade.params.notify_url}?${new URLSearchParams(params)}`);
    const answer = await response.text();
    notifications.push({ params, answer });
    return answer;
  };
  const pay = async (outTradeNo: string, options: { deliver?: boolean; buyer?: string } = {}) => {
    const trade = trades.get(outTradeNo);
    if (!trade) throw new Error(`no trade ${outTradeNo}`);
    trade.status = 1;
    const params = notifyParams(trade, options.buyer ? { buyer: options.buyer } : {});
    return { params, answer: options.deliver === false ? undefined : await notify(trade, params) };
  };

  const api = (params: Record<string, string>) => {
    if (params.pid !== pid || params.key !== key) return { code: -2, msg: 'KEY校验失败' };
    const trade = trades.get(params.out_trade_no ?? '');
    if (!trade) return { code: -1, msg: '订单号不存在' };
    if (params.act === 'order') {
      return {
        code: 1,
        msg: '查询订单号成功！',
        trade_no: trade.tradeNo,
        out_trade_no: params.out_trade_no,
        type: trade.params.type,
        pid,
        name: trade.params.name,
        money: trade.params.money,
        status: trade.status,
      };
    }
    if (params.act === 'refund') {
      if (trade.status !== 1) return { code: -1, msg: '订单未支付' };
      if (!/^\d+(\.\d{1,2})?$/.test(params.money ?? '')) return { code: -1, msg: '金额不合法' };
      const amount = fen(params.money ?? '0');
      if (amount <= 0 || trade.refundedFen + amount > fen(trade.params.money ?? '0')) return { code: -1, msg: '退款金额超过订单金额' };
      trade.refundedFen += amount;
      return { code: 1, msg: '退款成功' };
    }
    return { code: -5, msg: 'unknown act' };
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const address = new URL(request.url ?? '/', 'http://simulator');
    const params: Record<string, string> = Object.fromEntries(address.searchParams);
    const body = await readBody(request);
    if (request.method === 'POST') Object.assign(params, Object.fromEntries(new URLSearchParams(body)));
    if (address.pathname === '/submit.php') {
      const problem = submit(params);
      if (problem) return response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<h3>${problem}</h3>`);
      return response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><title>Epay simulator</title><h1>支付 ¥${params.money}</h1><form method="post" action="/pay?out_trade_no=${encodeURIComponent(params.out_trade_no ?? '')}"><button>Pay</button></form>`,
        );
    }
    if (address.pathname === '/pay' && request.method === 'POST') {
      const trade = trades.get(params.out_trade_no ?? '');
      if (!trade) return response.writeHead(404).end();
      await pay(params.out_trade_no ?? '');
      return response.writeHead(303, { location: trade.params.return_url ?? '/' }).end();
    }
    if (address.pathname === '/api.php') return sendJson(response, 200, api(params));
    return response.writeHead(404).end();
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: Error) => sendJson(response, 500, { code: -9, msg: error.message }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    pid,
    key,
    trades,
    notifications,
    /** Opens the checkout page the gateway handed out (the payer's browser does this): submit.php checks it. */
    async open(checkoutUrl: string) {
      const response = await fetch(checkoutUrl);
      return response.text();
    },
    pay,
    notifyParams,
    notify,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type EpaySimulator = Awaited<ReturnType<typeof startEpaySimulator>>;
