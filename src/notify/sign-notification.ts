import { createHmac } from 'node:crypto';

/**
 * The generic webhook's header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` under the
 * channel's secret (the scheme Stripe made familiar: the timestamp inside the signature lets a
 * receiver refuse a replayed message).
 */
export function webhookSignature(secret: string, body: string, unixSeconds: number): string {
  const digest = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${digest}`;
}

/** Feishu/Lark custom bot: base64(HMAC-SHA256 keyed with "<timestamp>\n<secret>" over an empty message); timestamp in seconds. */
export function feishuSign(secret: string, unixSeconds: number): string {
  return createHmac('sha256', `${unixSeconds}\n${secret}`).update('').digest('base64');
}

/** DingTalk custom robot: base64(HMAC-SHA256 keyed with the secret over "<timestamp>\n<secret>"); timestamp in ms. Not yet URL-encoded. */
export function dingtalkSign(secret: string, unixMillis: number): string {
  return createHmac('sha256', secret).update(`${unixMillis}\n${secret}`).digest('base64');
}
