import type { ReplySpec, ToolCallSpec } from './golden-cases.ts';
import { json, splitArguments, splitText, type ReplyBuilder } from './recorded-reply.ts';

const ID = 'msg_01GoldenUpstream0001';
/** A recorded-looking thinking signature; it must reach Anthropic clients byte for byte. */
export const ANTHROPIC_REPLY_SIGNATURE = 'ErUBCkYIBxgCIkBReplyThinkingSignatureFromAnthropic0123456789abcdefABCDEF==';

const toolId = (call: ToolCallSpec) => `toolu_up${call.index + 1}`;

/** Also Bedrock Converse's `stopReason` values (Converse uses Claude's words). */
export function stopReason(reply: ReplySpec): string {
  switch (reply.finish) {
    case 'stop':
      return 'end_turn';
    case 'stop-sequence':
      return 'stop_sequence';
    case 'length':
      return 'max_tokens';
    case 'tool-calls':
      return 'tool_use';
    default: {
      const unreachable: never = reply.finish;
      return unreachable;
    }
  }
}

/** Anthropic's input_tokens exclude cache reads and writes. */
function inputUsage(reply: ReplySpec) {
  const { input, cacheRead = 0, cacheWrite = 0 } = reply.usage;
  return {
    input_tokens: input - cacheRead - cacheWrite,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
    cache_creation: { ephemeral_5m_input_tokens: cacheWrite, ephemeral_1h_input_tokens: 0 },
  };
}

const RATE_LIMITED = {
  type: 'error',
  error: { type: 'rate_limit_error', message: 'This request would exceed the rate limit for your organization of 50 requests per minute.' },
  request_id: 'req_011CGoldenRateLimited',
};

/** Messages API as api.anthropic.com answers (2023-06-01). */
export const buildAnthropicMessagesReply: ReplyBuilder = (goldenCase, mode, model) => {
  const outcome = goldenCase.outcome;
  if (outcome.kind === 'rate-limited') return json(429, RATE_LIMITED);
  if (mode === 'plain') {
    if (outcome.kind !== 'reply') throw new Error('a mid-stream error needs a stream');
    const reply = outcome.reply;
    const content: unknown[] = [];
    if (reply.reasoning) content.push({ type: 'thinking', thinking: reply.reasoning.text, signature: ANTHROPIC_REPLY_SIGNATURE });
    if (reply.text !== undefined) content.push({ type: 'text', text: reply.text });
    for (const call of reply.toolCalls ?? []) content.push({ type: 'tool_use', id: toolId(call), name: call.name, input: call.arguments });
    return json(200, {
      id: ID,
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: stopReason(reply),
      stop_sequence: reply.stopSequence ?? null,
      usage: { ...inputUsage(reply), output_tokens: reply.usage.output, service_tier: 'standard' },
    });
  }

  let body = '';
  const event = (type: string, data: Record<string, unknown>) => {
    body += `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  };
  const reply: ReplySpec = outcome.kind === 'reply' ? outcome.reply : { text: outcome.partialText, finish: 'stop', usage: { input: 12, output: 6 } };
  event('message_start', {
    message: {
      id: ID,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...inputUsage(reply), output_tokens: 1, service_tier: 'standard' },
    },
  });
  let index = 0;
  const block = (start: unknown, deltas: unknown[]) => {
    event('content_block_start', { index, content_block: start });
    if (index === 0) event('ping', {});
    for (const delta of deltas) event('content_block_delta', { index, delta });
    event('content_block_stop', { index });
    index += 1;
  };
  if (reply.reasoning) {
    block({ type: 'thinking', thinking: '', signature: '' }, [
      ...splitText(reply.reasoning.text).map((thinking) => ({ type: 'thinking_delta', thinking })),
      { type: 'signature_delta', signature: ANTHROPIC_REPLY_SIGNATURE },
    ]);
  }
  if (outcome.kind === 'mid-stream-error') {
    event('content_block_start', { index, content_block: { type: 'text', text: '' } });
    event('ping', {});
    for (const text of splitText(outcome.partialText)) event('content_block_delta', { index, delta: { type: 'text_delta', text } });
    event('error', { error: { type: 'overloaded_error', message: 'Overloaded' } });
    return { status: 200, format: 'sse', body };
  }
  if (reply.text !== undefined)
    block(
      { type: 'text', text: '' },
      splitText(reply.text).map((text) => ({ type: 'text_delta', text })),
    );
  for (const call of reply.toolCalls ?? []) {
    block(
      { type: 'tool_use', id: toolId(call), name: call.name, input: {} },
      splitArguments(JSON.stringify(call.arguments)).map((partial_json) => ({ type: 'input_json_delta', partial_json })),
    );
  }
  event('message_delta', {
    delta: { stop_reason: stopReason(reply), stop_sequence: reply.stopSequence ?? null },
    usage: { output_tokens: reply.usage.output },
  });
  event('message_stop', {});
  return { status: 200, format: 'sse', body };
};
