import type { Warning } from '../core/warning.ts';
import { isRecord } from '../protocols/shared/is-record.ts';

const isThinking = (block: unknown) => isRecord(block) && (block.type === 'thinking' || block.type === 'redacted_thinking');

/**
 * Anthropic refuses a request with thinking on when the assistant turn before the last tool
 * results does not start with a thinking block it signed. When the gateway could not recover
 * one (the client stripped it, the cache expired, the turn came from another provider), the
 * documented way out is to turn thinking off for this request: Anthropic allows that, the
 * answer is still produced, and the warning says what happened. Works on the encoded body.
 */
export function enforceAnthropicThinking(body: Record<string, unknown>, warnings: Warning[]): void {
  const thinking = isRecord(body.thinking) ? body.thinking.type : undefined;
  if (thinking !== 'enabled' && thinking !== 'adaptive') return;
  const messages = Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];
  if (messages.length < 2) return;
  const last = messages[messages.length - 1]!;
  const before = messages[messages.length - 2]!;
  const blocks = Array.isArray(before.content) ? before.content : [];
  const lastBlocks = Array.isArray(last.content) ? last.content : [];
  const inToolLoop =
    last.role === 'user' &&
    lastBlocks.some((block) => isRecord(block) && block.type === 'tool_result') &&
    before.role === 'assistant' &&
    blocks.some((block) => isRecord(block) && block.type === 'tool_use');
  if (!inToolLoop || isThinking(blocks[0])) return;
  delete body.thinking;
  warnings.push({
    type: 'compatibility',
    feature: 'thinking_disabled',
    detail: 'the assistant turn before the tool results carries no Anthropic thinking block the gateway could recover, so thinking was turned off for this request (Anthropic refuses it otherwise)',
  });
}
