import { eventFrame, exceptionFrame } from '../../simulator/bedrock-converse-dialect.ts';
import { stopReason } from './anthropic-messages-reply.ts';
import type { ReplySpec, ToolCallSpec } from './golden-cases.ts';
import { json, splitArguments, splitText, type ReplyBuilder } from './recorded-reply.ts';

/** A recorded-looking Claude thinking signature as Bedrock returns it in `reasoningText.signature`. */
export const BEDROCK_REPLY_SIGNATURE = 'EqQBCkgIBxABGAIiQBedrockReasoningSignatureFromClaude0123456789abcdefABCDEF==';

/** Bedrock's tool-use ids: `tooluse_` and 22 url-safe characters. */
const toolUseId = (call: ToolCallSpec) => `tooluse_GoldenBedrockCall0${call.index + 1}xyzQ`;

/**
 * Claude's matched stop sequence, which Converse returns only when the request asked for it
 * with `additionalModelResponseFieldPaths: ["/stop_sequence"]` (null when none matched).
 */
function additionalFields(reply: ReplySpec): Record<string, unknown> {
  return reply.finish === 'stop-sequence' ? { additionalModelResponseFields: { stop_sequence: reply.stopSequence ?? null } } : {};
}

/** Converse's inputTokens exclude cache reads and writes, as Anthropic's do; no reasoning count is given. */
function usage(reply: ReplySpec) {
  const { input, output, cacheRead, cacheWrite } = reply.usage;
  const inputTokens = input - (cacheRead ?? 0) - (cacheWrite ?? 0);
  return {
    inputTokens,
    outputTokens: output,
    totalTokens: input + output,
    ...(cacheRead === undefined ? {} : { cacheReadInputTokens: cacheRead }),
    ...(cacheWrite === undefined ? {} : { cacheWriteInputTokens: cacheWrite }),
  };
}

const RATE_LIMITED = { message: 'Too many requests, please wait before trying again.' };

/** Bedrock pads every stream event with `p` (it hides token sizes); readers must ignore it. */
const PADDING = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456';

/**
 * Converse (`/model/{id}/converse`) and ConverseStream (`/converse-stream`, AWS event-stream
 * frames built with @smithy/eventstream-codec through the simulator's helpers) as
 * bedrock-runtime answers for Claude. The stream body is binary, carried as a latin1 string.
 */
export const buildBedrockConverseReply: ReplyBuilder = (goldenCase, mode) => {
  const outcome = goldenCase.outcome;
  if (outcome.kind === 'rate-limited') return json(429, RATE_LIMITED);
  if (mode === 'plain') {
    if (outcome.kind !== 'reply') throw new Error('a mid-stream error needs a stream');
    const reply = outcome.reply;
    const content: unknown[] = [];
    if (reply.reasoning) content.push({ reasoningContent: { reasoningText: { text: reply.reasoning.text, signature: BEDROCK_REPLY_SIGNATURE } } });
    if (reply.text !== undefined) content.push({ text: reply.text });
    for (const call of reply.toolCalls ?? []) content.push({ toolUse: { toolUseId: toolUseId(call), name: call.name, input: call.arguments } });
    return json(200, {
      output: { message: { role: 'assistant', content } },
      stopReason: stopReason(reply),
      usage: usage(reply),
      metrics: { latencyMs: 812 },
      ...additionalFields(reply),
    });
  }

  let body = '';
  let frames = 0;
  const emit = (type: string, fields: Record<string, unknown>) => {
    body += eventFrame(type, { ...fields, p: PADDING.slice(0, 5 + ((frames * 7) % 40)) });
    frames += 1;
  };
  emit('messageStart', { role: 'assistant' });
  let index = 0;
  if (outcome.kind === 'mid-stream-error') {
    for (const text of splitText(outcome.partialText)) emit('contentBlockDelta', { contentBlockIndex: index, delta: { text } });
    body += exceptionFrame('modelStreamErrorException', 'The model returned an error: Overloaded');
    return { status: 200, format: 'eventstream', body };
  }
  const reply = outcome.reply;
  if (reply.reasoning) {
    for (const text of splitText(reply.reasoning.text)) emit('contentBlockDelta', { contentBlockIndex: index, delta: { reasoningContent: { text } } });
    emit('contentBlockDelta', { contentBlockIndex: index, delta: { reasoningContent: { signature: BEDROCK_REPLY_SIGNATURE } } });
    emit('contentBlockStop', { contentBlockIndex: index });
    index += 1;
  }
  if (reply.text !== undefined) {
    for (const text of splitText(reply.text)) emit('contentBlockDelta', { contentBlockIndex: index, delta: { text } });
    emit('contentBlockStop', { contentBlockIndex: index });
    index += 1;
  }
  for (const call of reply.toolCalls ?? []) {
    emit('contentBlockStart', { contentBlockIndex: index, start: { toolUse: { toolUseId: toolUseId(call), name: call.name } } });
    for (const input of splitArguments(JSON.stringify(call.arguments))) emit('contentBlockDelta', { contentBlockIndex: index, delta: { toolUse: { input } } });
    emit('contentBlockStop', { contentBlockIndex: index });
    index += 1;
  }
  emit('messageStop', { stopReason: stopReason(reply), ...additionalFields(reply) });
  emit('metadata', { usage: usage(reply), metrics: { latencyMs: 812 } });
  return { status: 200, format: 'eventstream', body };
};
