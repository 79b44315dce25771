import { invalidRequest } from '../../core/gateway-error.ts';

/**
 * Far deeper than any real request (tool schemas nest a dozen levels), far shallower than what
 * overflows the stack of a recursive walker or of JSON.stringify.
 */
export const MAX_JSON_DEPTH = 256;

/**
 * Rejects a parsed body nested deeper than `limit`, walking it without recursion so that the
 * check itself cannot overflow. Junk like `[[[[…]]]]` then gets a 400 naming the cause instead
 * of a stack overflow deep inside a decoder.
 */
export function assertJsonDepth(value: unknown, limit: number = MAX_JSON_DEPTH): void {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const next = stack.pop() as { value: unknown; depth: number };
    if (next.value === null || typeof next.value !== 'object') continue;
    if (next.depth > limit) {
      throw invalidRequest(`The request body nests more than ${limit} levels deep; flatten it (tool schemas rarely need more than a dozen levels).`);
    }
    const children = Array.isArray(next.value) ? next.value : Object.values(next.value);
    for (const child of children) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: next.depth + 1 });
    }
  }
}
