import { isRecord } from '../shared/is-record.ts';

const MAX_TEXT_MESSAGE = 500;

/**
 * Reads an upstream error body. Anthropic sends `{type:"error", error:{type, message}}`, but
 * proxies in front of it send HTML, plain text or OpenAI-shaped errors; take what is there.
 */
export function decodeAnthropicError(status: number, body: unknown): { message: string; type?: string } {
  const fallback = `The upstream answered HTTP ${status} without an error message.`;
  if (typeof body === 'string') {
    const text = body.trim();
    return { message: text === '' ? fallback : text.slice(0, MAX_TEXT_MESSAGE) };
  }
  if (!isRecord(body)) return { message: fallback };
  const inner = isRecord(body.error) ? body.error : body;
  const message =
    typeof inner.message === 'string' && inner.message !== '' ? inner.message : typeof body.error === 'string' && body.error !== '' ? body.error : fallback;
  const type = typeof inner.type === 'string' && inner.type !== 'error' ? inner.type : undefined;
  return type === undefined ? { message } : { message, type };
}
