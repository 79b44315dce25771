import type { AffinityHint, ClientRequestInput } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';

/**
 * A Messages request's conversation: `metadata.user_id` (Claude Code puts its session there) and
 * the prompt-cache prefix. Blocks are in Anthropic's cache order (tools, system, messages); a
 * string `system` or message `content` counts as one text block, so both spellings of the same
 * text hash alike, and `cache_control` is left out wherever it sits, so the breakpoint moving to
 * the newest message does not change the earlier content. The blocks are serialised only when
 * the request has a breakpoint.
 */
export function anthropicAffinityHint(input: ClientRequestInput): AffinityHint | undefined {
  const body = input.body;
  if (!isRecord(body)) return undefined;
  const conversationKeys: string[] = [];
  if (isRecord(body.metadata) && typeof body.metadata.user_id === 'string' && body.metadata.user_id !== '') {
    conversationKeys.push(`user_id:${body.metadata.user_id}`);
  }
  const cachePrefix = hasBreakpoint(body) ? readCachePrefix(body) : undefined;
  if (conversationKeys.length === 0 && cachePrefix === undefined) return undefined;
  return { conversationKeys, ...(cachePrefix === undefined ? {} : { cachePrefix }) };
}

function readCachePrefix(body: Record<string, unknown>): { blocks: string[]; breakpoints: number[] } | undefined {
  const blocks: string[] = [];
  const breakpoints: number[] = [];
  const add = (section: string, block: unknown) => {
    if (isRecord(block) && isRecord(block.cache_control)) breakpoints.push(blocks.length);
    blocks.push(`${section}\u0000${JSON.stringify(block, withoutCacheControl)}`);
  };
  if (Array.isArray(body.tools)) for (const tool of body.tools) add('tool', tool);
  for (const block of contentBlocks(body.system)) add('system', block);
  if (Array.isArray(body.messages)) {
    for (const message of body.messages) {
      if (!isRecord(message)) continue;
      const role = typeof message.role === 'string' ? message.role : '';
      for (const block of contentBlocks(message.content)) add(role, block);
    }
  }
  return breakpoints.length === 0 ? undefined : { blocks, breakpoints };
}

function contentBlocks(content: unknown): unknown[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return Array.isArray(content) ? content : [];
}

function withoutCacheControl(key: string, value: unknown): unknown {
  return key === 'cache_control' ? undefined : value;
}

/** A cheap scan before any serialising: does a tool, system block or message block carry `cache_control`? */
function hasBreakpoint(body: Record<string, unknown>): boolean {
  const marked = (block: unknown) => isRecord(block) && isRecord(block.cache_control);
  if (Array.isArray(body.tools) && body.tools.some(marked)) return true;
  if (Array.isArray(body.system) && body.system.some(marked)) return true;
  if (!Array.isArray(body.messages)) return false;
  return body.messages.some((message) => isRecord(message) && Array.isArray(message.content) && message.content.some(marked));
}
