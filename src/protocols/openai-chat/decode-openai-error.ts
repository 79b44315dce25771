import { isRecord } from '../shared/is-record.ts';

function fromObject(value: Record<string, unknown>): { message?: string; type?: string } {
  const inner = value.error;
  if (typeof inner === 'string') return { message: inner };
  const source = isRecord(inner) ? inner : value;
  const message = typeof source.message === 'string' ? source.message : undefined;
  const type = typeof source.type === 'string' ? source.type : typeof source.code === 'string' ? source.code : undefined;
  return { ...(message === undefined ? {} : { message }), ...(type === undefined ? {} : { type }) };
}

/**
 * Reads an upstream error of the OpenAI family. Real hosts send `{error:{message,type,code}}`,
 * but proxies in front of them send `{error:"..."}`, `{message}`, arrays, plain text or
 * nothing; every one of those still yields a usable message.
 */
export function decodeOpenAiError(status: number, body: unknown): { message: string; type?: string } {
  let value: unknown = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      const text = body.trim();
      return { message: text === '' ? `The upstream answered HTTP ${status} with an empty body.` : text.slice(0, 2000) };
    }
  }
  if (Array.isArray(value) && value.length > 0) value = value[0];
  if (typeof value === 'string' && value !== '') return { message: value };
  const found = isRecord(value) ? fromObject(value) : {};
  return {
    message: found.message ?? `The upstream answered HTTP ${status} without an error message.`,
    ...(found.type === undefined ? {} : { type: found.type }),
  };
}
