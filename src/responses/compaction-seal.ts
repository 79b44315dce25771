import { invalidRequest } from '../core/gateway-error.ts';
import { createJsonSeal } from '../relay/reasoning/reasoning-envelope.ts';
import { inputItems } from './replay-items.ts';

// "SYC" + version 1: a compaction item, never mistaken for a reasoning envelope ("SYR").
const MAGIC = Buffer.from([0x53, 0x59, 0x43, 0x01]);

/**
 * The gateway's own compaction items (`POST /v1/responses/compact` on upstreams that cannot
 * compact): the summary the routed model wrote, sealed for the API key that asked, in the item's
 * `encrypted_content`. Opaque to the client (deflated), authenticated (HMAC under a key derived
 * from the gateway secret), and bound to the key, so no tenant can forge a summary or use
 * another's.
 */
export interface CompactionSeal {
  seal(keyId: string, summary: string): string;
  /** The summary, when the content was sealed here for this key and is untouched. */
  open(keyId: string, content: unknown): string | undefined;
  /**
   * An OpenAI upstream's own compaction item (passthrough compaction) wrapped for this key: the
   * upstream's content is readable by the upstream alone, so the gateway vouches for where it
   * came from and whom it was issued to (every tenant shares the gateway's OpenAI organisation).
   */
  wrap(keyId: string, upstreamContent: string): string;
  /** The upstream's content, when it was wrapped here for this key and is untouched. */
  unwrap(keyId: string, content: unknown): string | undefined;
}

export function createCompactionSeal(gatewaySecret: Buffer | string): CompactionSeal {
  const box = createJsonSeal(gatewaySecret, 'switchyard compaction item v1', MAGIC);
  return {
    seal: (keyId, summary) => box.seal({ k: keyId, s: summary }),
    open(keyId, content) {
      if (typeof content !== 'string') return undefined;
      const value = box.open(content) as { k?: unknown; s?: unknown } | undefined;
      return value !== undefined && value.k === keyId && typeof value.s === 'string' ? value.s : undefined;
    },
    wrap: (keyId, upstreamContent) => box.seal({ k: keyId, u: upstreamContent }),
    unwrap(keyId, content) {
      if (typeof content !== 'string') return undefined;
      const value = box.open(content) as { k?: unknown; u?: unknown } | undefined;
      return value !== undefined && value.k === keyId && typeof value.u === 'string' ? value.u : undefined;
    },
  };
}

/**
 * How a compacted history reads to the model: the summary as a user message after this line
 * (the same hand-off Codex uses when it compacts locally).
 */
export const COMPACTION_SUMMARY_PREFIX =
  'Another language model started to solve this problem and produced a summary of its thinking process. Use it to continue the work; the summary follows:\n\n';

/**
 * A Responses body with each compaction item replaced by its summary (a user message), or by the
 * upstream item it wraps, before anything reads the input; undefined when the input holds none
 * (the usual case, checked without allocating). An item the gateway did not seal for this key, or that was altered, is
 * refused with a 400 naming it: it can only be a client's mistake or a forgery, and passing it
 * on would let an upstream see text the gateway never vouched for.
 */
export function openCompactionItems(seal: CompactionSeal, keyId: string, body: Record<string, unknown>): Record<string, unknown> | undefined {
  const input = body.input;
  if (!Array.isArray(input) || !input.some(isCompactionItem)) return undefined;
  const opened = inputItems(input).map((item, index) => {
    if (!isCompactionItem(item)) return item;
    const summary = seal.open(keyId, item.encrypted_content);
    // An upstream's own item goes back to it as it issued it (on any other upstream the
    // Responses decoder drops it with an `unsupported:input.compaction` warning).
    const upstream = summary === undefined ? seal.unwrap(keyId, item.encrypted_content) : undefined;
    if (upstream !== undefined) return { ...item, encrypted_content: upstream };
    if (summary === undefined) {
      const name = typeof item.id === 'string' ? ` "${item.id}"` : '';
      throw invalidRequest(
        `input[${index}]: compaction item${name} was not issued by this gateway for this API key, or was altered; send back compaction items exactly as /v1/responses/compact returned them, or drop it and send the history instead.`,
        `input[${index}].encrypted_content`,
      );
    }
    return { type: 'message', role: 'user', content: [{ type: 'input_text', text: COMPACTION_SUMMARY_PREFIX + summary }] };
  });
  return { ...body, input: opened };
}

function isCompactionItem(item: unknown): item is { type: 'compaction'; id?: unknown; encrypted_content?: unknown } {
  return typeof item === 'object' && item !== null && (item as { type?: unknown }).type === 'compaction';
}
