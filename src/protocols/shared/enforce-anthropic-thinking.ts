import type { Warning } from '../../core/warning.ts';
import { isRecord } from './is-record.ts';

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
  const hasType = (type: string) => (block: unknown) => isRecord(block) && block.type === type;
  if (!loopLacksThinking(body.messages, hasType('tool_use'), hasType('tool_result'), isThinking)) return;
  delete body.thinking;
  warnings.push(THINKING_DISABLED);
}

/**
 * The same rule for Claude on Bedrock, on a Converse body: thinking rides in
 * `additionalModelRequestFields.thinking`, blocks are `toolUse`, `toolResult`, `reasoningContent`.
 */
export function enforceConverseThinking(body: Record<string, unknown>, warnings: Warning[]): void {
  const additional = isRecord(body.additionalModelRequestFields) ? body.additionalModelRequestFields : undefined;
  if (!additional || !isRecord(additional.thinking)) return;
  const has = (member: string) => (block: unknown) => isRecord(block) && isRecord(block[member]);
  if (!loopLacksThinking(body.messages, has('toolUse'), has('toolResult'), has('reasoningContent'))) return;
  delete additional.thinking;
  if (Object.keys(additional).length === 0) delete body.additionalModelRequestFields;
  warnings.push(THINKING_DISABLED);
}

const THINKING_DISABLED: Warning = {
  type: 'compatibility',
  feature: 'thinking_disabled',
  detail:
    'the assistant turn before the tool results carries no Anthropic thinking block the gateway could recover, so thinking was turned off for this request (Anthropic refuses it otherwise)',
};

/** The last turn answers tool calls, and the assistant turn that made them does not open with thinking. */
function loopLacksThinking(
  value: unknown,
  isToolUse: (block: unknown) => boolean,
  isToolResult: (block: unknown) => boolean,
  isThought: (block: unknown) => boolean,
): boolean {
  const messages = Array.isArray(value) ? value.filter(isRecord) : [];
  if (messages.length < 2) return false;
  const last = messages[messages.length - 1]!;
  const before = messages[messages.length - 2]!;
  const blocks = Array.isArray(before.content) ? before.content : [];
  const lastBlocks = Array.isArray(last.content) ? last.content : [];
  const inToolLoop = last.role === 'user' && lastBlocks.some(isToolResult) && before.role === 'assistant' && blocks.some(isToolUse);
  return inToolLoop && !isThought(blocks[0]);
}
