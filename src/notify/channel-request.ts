import type { NotificationChannel } from '../domain/notification.ts';
import { isRecord } from '../protocols/shared/is-record.ts';
import { dingtalkSign, feishuSign, webhookSignature } from './sign-notification.ts';

/** One HTTP message to a chat service or webhook, and how to tell from the answer that it was taken. */
export interface ChannelRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Given the status and text of the answer: undefined when taken, else why not. */
  refusal(status: number, text: string): string | undefined;
}

/** What a message carries: the generic body (sent as is to webhooks) and its text for chat services. */
export interface OutgoingMessage {
  id: string;
  event: string;
  payload: string;
  text: string;
}

export const TELEGRAM_API = 'https://api.telegram.org';
const JSON_TYPE = { 'content-type': 'application/json' };

/**
 * The HTTP request of each webhook-style channel, in the shape its service publishes: the generic
 * webhook (signed), Slack incoming webhooks, Feishu/Lark and DingTalk bots (signed when a secret
 * is set), WeCom group robots and Telegram's Bot API (`secret` is the bot token, `to` the chat id).
 */
export function channelRequest(channel: NotificationChannel, message: OutgoingMessage, now: number): ChannelRequest {
  const seconds = Math.floor(now / 1000);
  switch (channel.type) {
    case 'webhook': {
      const headers: Record<string, string> = { ...JSON_TYPE, 'x-switchyard-event': message.event, 'x-switchyard-delivery': message.id };
      if (channel.secret) headers['x-switchyard-signature'] = webhookSignature(channel.secret, message.payload, seconds);
      return { url: required(channel.url), headers, body: message.payload, refusal: httpRefusal };
    }
    case 'slack':
      return { url: required(channel.url), headers: JSON_TYPE, body: JSON.stringify({ text: message.text }), refusal: httpRefusal };
    case 'feishu': {
      const signed = channel.secret ? { timestamp: String(seconds), sign: feishuSign(channel.secret, seconds) } : {};
      const body = JSON.stringify({ ...signed, msg_type: 'text', content: { text: message.text } });
      return { url: required(channel.url), headers: JSON_TYPE, body, refusal: jsonCode('code', 'msg') };
    }
    case 'dingtalk': {
      const url = new URL(required(channel.url));
      if (channel.secret) {
        url.searchParams.set('timestamp', String(now));
        url.searchParams.set('sign', dingtalkSign(channel.secret, now));
      }
      const body = JSON.stringify({ msgtype: 'text', text: { content: message.text } });
      return { url: url.toString(), headers: JSON_TYPE, body, refusal: jsonCode('errcode', 'errmsg') };
    }
    case 'wecom':
      return {
        url: required(channel.url),
        headers: JSON_TYPE,
        body: JSON.stringify({ msgtype: 'text', text: { content: message.text } }),
        refusal: jsonCode('errcode', 'errmsg'),
      };
    case 'telegram': {
      const base = (channel.url ?? TELEGRAM_API).replace(/\/+$/, '');
      const body = JSON.stringify({ chat_id: required(channel.to), text: message.text, disable_web_page_preview: true });
      return { url: `${base}/bot${required(channel.secret)}/sendMessage`, headers: JSON_TYPE, body, refusal: telegramRefusal };
    }
    case 'email':
      throw new Error('e-mail channels are sent through the mailer, not over HTTP');
  }
}

function required(value: string | null): string {
  if (!value) throw new Error('the channel lacks a required setting');
  return value;
}

function httpRefusal(status: number, text: string): string | undefined {
  return status >= 200 && status < 300 ? undefined : `HTTP ${status}: ${text.slice(0, 200)}`;
}

/** Feishu (`code`), DingTalk and WeCom (`errcode`) answer 200 with a non-zero code when they refuse. */
function jsonCode(codeField: string, messageField: string) {
  return (status: number, text: string): string | undefined => {
    const plain = httpRefusal(status, text);
    if (plain) return plain;
    const answer = parseObject(text);
    const code = answer?.[codeField] ?? answer?.StatusCode;
    if (code === 0 || code === '0') return undefined;
    return `refused: ${codeField} ${String(code)} ${String(answer?.[messageField] ?? '')}`.trim();
  };
}

function telegramRefusal(status: number, text: string): string | undefined {
  const answer = parseObject(text);
  if (status >= 200 && status < 300 && answer?.ok === true) return undefined;
  return `Telegram refused (HTTP ${status}): ${String(answer?.description ?? text.slice(0, 200))}`;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
