import type { ReplySpec, ToolCallSpec } from './golden-cases.ts';
import { json, splitArguments, splitText, type ReplyBuilder } from './recorded-reply.ts';

const ID = 'chatcmpl-AuPstream0001';
const CREATED = 1_699_999_990;
const FINGERPRINT = 'fp_golden01';

const callId = (call: ToolCallSpec) => `call_up${call.index + 1}`;

function finishReason(reply: ReplySpec): string {
  switch (reply.finish) {
    case 'stop':
    case 'stop-sequence':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool-calls':
      return 'tool_calls';
    default: {
      const unreachable: never = reply.finish;
      return unreachable;
    }
  }
}

function usage(reply: ReplySpec) {
  const { input, output, cacheRead, reasoning } = reply.usage;
  return {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: input + output,
    prompt_tokens_details: { cached_tokens: cacheRead ?? 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: reasoning ?? 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

const RATE_LIMITED = {
  error: {
    message: 'Rate limit reached for gpt-4o-mini in organization org-golden on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.',
    type: 'requests',
    param: null,
    code: 'rate_limit_exceeded',
  },
};

/** Chat Completions as api.openai.com answers (DeepSeek-style `reasoning_content` for thinking). */
export const buildOpenaiChatReply: ReplyBuilder = (goldenCase, mode, model) => {
  const outcome = goldenCase.outcome;
  if (outcome.kind === 'rate-limited') return json(429, RATE_LIMITED);
  if (mode === 'plain') {
    if (outcome.kind !== 'reply') throw new Error('a mid-stream error needs a stream');
    const reply = outcome.reply;
    const message: Record<string, unknown> = { role: 'assistant', content: reply.text ?? null };
    if (reply.reasoning) message.reasoning_content = reply.reasoning.text;
    if (reply.toolCalls) {
      message.tool_calls = reply.toolCalls.map((call) => ({
        id: callId(call),
        type: 'function',
        function: { name: call.name, arguments: JSON.stringify(call.arguments) },
      }));
    }
    message.refusal = null;
    message.annotations = [];
    return json(200, {
      id: ID,
      object: 'chat.completion',
      created: CREATED,
      model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(reply) }],
      usage: usage(reply),
      service_tier: 'default',
      system_fingerprint: FINGERPRINT,
    });
  }

  let body = '';
  const chunk = (delta: unknown, finish: string | null = null) => {
    body += `data: ${JSON.stringify({ id: ID, object: 'chat.completion.chunk', created: CREATED, model, service_tier: 'default', system_fingerprint: FINGERPRINT, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], usage: null })}\n\n`;
  };
  chunk({ role: 'assistant', content: '', refusal: null });
  if (outcome.kind === 'mid-stream-error') {
    for (const piece of splitText(outcome.partialText)) chunk({ content: piece });
    body += `data: ${JSON.stringify({ error: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: null } })}\n\n`;
    return { status: 200, format: 'sse', body };
  }
  const reply = outcome.reply;
  if (reply.reasoning) for (const piece of splitText(reply.reasoning.text)) chunk({ reasoning_content: piece });
  if (reply.text !== undefined) for (const piece of splitText(reply.text)) chunk({ content: piece });
  for (const call of reply.toolCalls ?? []) {
    chunk({ tool_calls: [{ index: call.index, id: callId(call), type: 'function', function: { name: call.name, arguments: '' } }] });
    for (const piece of splitArguments(JSON.stringify(call.arguments))) chunk({ tool_calls: [{ index: call.index, function: { arguments: piece } }] });
  }
  chunk({}, finishReason(reply));
  body += `data: ${JSON.stringify({ id: ID, object: 'chat.completion.chunk', created: CREATED, model, service_tier: 'default', system_fingerprint: FINGERPRINT, choices: [], usage: usage(reply) })}\n\n`;
  body += 'data: [DONE]\n\n';
  return { status: 200, format: 'sse', body };
};
