import type { Order } from '../domain/order.ts';
import { epaySign, epaySignatureValid, minorToMoney, moneyToMinor } from './epay-sign.ts';
import { hashPayer } from './hash-payer.ts';
import { PaymentProviderError, PaymentRefusedError, type PaymentConfirmation, type PaymentProvider } from './payment-provider.ts';

export interface EpaySettings {
  /** The merchant id. */
  pid: string;
  /** The merchant key: MD5 signatures are keyed with it, and the API takes it as a parameter. */
  key: string;
  /** The Epay site (https://pay.example.com); submit.php and api.php are under it. */
  apiBase: string;
  /** Epay sites charge in yuan. */
  currency: string;
  /** The payment method offered (`alipay`, `wxpay`, …). */
  payType: string;
}

/**
 * The Epay-compatible protocol (易支付) most Chinese operators reach Alipay and WeChat Pay
 * through: a signed page jump to submit.php, the signed asynchronous notification (answered
 * `success`), api.php?act=order to ask about an order and act=refund to refund.
 */
export function createEpayProvider(settings: EpaySettings): PaymentProvider {
  const base = settings.apiBase.replace(/\/+$/, '');
  return {
    name: 'epay',
    currency: settings.currency,
    async createCheckout({ order, description, returnUrl, notifyUrl }) {
      const params: Record<string, string> = {
        pid: settings.pid,
        type: settings.payType,
        out_trade_no: order.id,
        notify_url: notifyUrl,
        return_url: returnUrl,
        name: description,
        money: minorToMoney(order.chargeMinor),
      };
      const signed = { ...params, sign: epaySign(params, settings.key), sign_type: 'MD5' };
      return { providerRef: order.id, checkoutUrl: `${base}/submit.php?${new URLSearchParams(signed)}` };
    },

    async verifyNotification({ params }) {
      if (params.pid !== settings.pid) throw new PaymentRefusedError('The notification names another merchant (pid).');
      if (!epaySignatureValid(params, settings.key)) throw new PaymentRefusedError('The Epay signature does not verify.');
      if (params.trade_status !== 'TRADE_SUCCESS') return { kind: 'ignored', reason: `trade_status ${params.trade_status ?? '(none)'}` };
      const payment: PaymentConfirmation = {
        orderId: params.out_trade_no ?? '',
        paymentRef: params.trade_no ?? '',
        currency: settings.currency,
        paidMinor: moneyToMinor(params.money) ?? -1,
        payerFingerprint: params.buyer ? hashPayer(params.buyer) : null,
      };
      return { kind: 'paid', payment };
    },

    async queryOrder(order) {
      const query = new URLSearchParams({ act: 'order', pid: settings.pid, key: settings.key, out_trade_no: order.id });
      const answer = await callApi(`${base}/api.php?${query}`, { method: 'GET' });
      if (Number(answer.code) !== 1 || Number(answer.status) !== 1) return undefined;
      return {
        orderId: order.id,
        paymentRef: String(answer.trade_no ?? ''),
        currency: settings.currency,
        paidMinor: moneyToMinor(String(answer.money ?? '')) ?? -1,
        payerFingerprint: typeof answer.buyer === 'string' && answer.buyer !== '' ? hashPayer(answer.buyer) : null,
      };
    },

    async refund(order: Order, amountMinor) {
      const body = new URLSearchParams({ pid: settings.pid, key: settings.key, out_trade_no: order.id, money: minorToMoney(amountMinor) });
      const answer = await callApi(`${base}/api.php?act=refund`, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      if (Number(answer.code) !== 1) throw new PaymentProviderError(`Epay refused the refund: ${String(answer.msg ?? 'no reason given')}`);
    },
  };
}

async function callApi(url: string, init: RequestInit): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
  } catch (error) {
    throw new PaymentProviderError(`Epay could not be reached: ${(error as Error).message}`);
  }
  const text = await response.text();
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed !== null && typeof parsed === 'object') return parsed as Record<string, unknown>;
  } catch {
    // fall through: not JSON
  }
  throw new PaymentProviderError(`Epay answered HTTP ${response.status} with something other than JSON.`);
}
