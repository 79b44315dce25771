import type { ReplySpec } from './golden-cases.ts';
import { json, splitArguments, splitText, type ReplyBuilder } from './recorded-reply.ts';

const ID = 'resp_0GoldenUpstream0001';
const CREATED = 1_699_999_990;
/** OpenAI's encrypted reasoning: opaque, and it must reach Responses clients unchanged. */
export const RESPONSES_REPLY_ENCRYPTED = 'gAAAAABReplyEncryptedReasoningFromOpenAI0123456789==';

function usage(reply: ReplySpec) {
  const { input, output, cacheRead, reasoning } = reply.usage;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: cacheRead ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reasoning ?? 0 },
    total_tokens: input + output,
  };
}

function outputItems(reply: ReplySpec): Array<Record<string, unknown>> {
  const items: Array<Record<string, unknown>> = [];
  if (reply.reasoning) {
    items.push({
      id: 'rs_up1',
      type: 'reasoning',
      encrypted_content: RESPONSES_REPLY_ENCRYPTED,
      summary: [{ type: 'summary_text', text: reply.reasoning.text }],
    });
  }
  if (reply.text !== undefined) {
    items.push({
      id: 'msg_up1',
      type: 'message',
      status: reply.finish === 'length' ? 'incomplete' : 'completed',
      content: [{ type: 'output_text', annotations: [], logprobs: [], text: reply.text }],
      role: 'assistant',
    });
  }
  for (const call of reply.toolCalls ?? []) {
    items.push({
      id: `fc_up${call.index + 1}`,
      type: 'function_call',
      status: 'completed',
      arguments: JSON.stringify(call.arguments),
      call_id: `call_up${call.index + 1}`,
      name: call.name,
    });
  }
  return items;
}

function responseObject(model: string, status: string, output: unknown[], reply: ReplySpec | undefined, error: unknown = null): Record<string, unknown> {
  return {
    id: ID,
    object: 'response',
    created_at: CREATED,
    status,
    background: false,
    error,
    incomplete_details: reply?.finish === 'length' ? { reason: 'max_output_tokens' } : null,
    instructions: null,
    max_output_tokens: null,
    model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: reply?.reasoning ? 'medium' : null, summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage: reply && status !== 'in_progress' ? usage(reply) : null,
    metadata: {},
  };
}

const RATE_LIMITED = {
  error: {
    message: 'Rate limit reached for gpt-5-codex in organization org-golden on tokens per min (TPM). Please try again in 2s.',
    type: 'tokens',
    param: null,
    code: 'rate_limit_exceeded',
  },
};

/** The Responses API as api.openai.com answers. */
export const buildOpenaiResponsesReply: ReplyBuilder = (goldenCase, mode, model) => {
  const outcome = goldenCase.outcome;
  if (outcome.kind === 'rate-limited') return json(429, RATE_LIMITED);
  if (mode === 'plain') {
    if (outcome.kind !== 'reply') throw new Error('a mid-stream error needs a stream');
    const reply = outcome.reply;
    return json(200, responseObject(model, reply.finish === 'length' ? 'incomplete' : 'completed', outputItems(reply), reply));
  }

  let body = '';
  let sequence = 0;
  const event = (type: string, data: Record<string, unknown>) => {
    body += `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`;
  };
  event('response.created', { response: responseObject(model, 'in_progress', [], undefined) });
  event('response.in_progress', { response: responseObject(model, 'in_progress', [], undefined) });
  if (outcome.kind === 'mid-stream-error') {
    event('response.output_item.added', { output_index: 0, item: { id: 'msg_up1', type: 'message', status: 'in_progress', content: [], role: 'assistant' } });
    event('response.content_part.added', {
      item_id: 'msg_up1',
      output_index: 0,
      content_index: 0,
      part: { type: 'output_text', annotations: [], logprobs: [], text: '' },
    });
    for (const delta of splitText(outcome.partialText))
      event('response.output_text.delta', { item_id: 'msg_up1', output_index: 0, content_index: 0, delta, logprobs: [] });
    event('response.failed', {
      response: responseObject(model, 'failed', [], undefined, { code: 'server_error', message: 'The model produced invalid content.' }),
    });
    return { status: 200, format: 'sse', body };
  }
  const reply = outcome.reply;
  const items = outputItems(reply);
  items.forEach((item, outputIndex) => {
    const itemId = item.id as string;
    switch (item.type) {
      case 'reasoning': {
        event('response.output_item.added', { output_index: outputIndex, item: { ...item, summary: [] } });
        event('response.reasoning_summary_part.added', {
          item_id: itemId,
          output_index: outputIndex,
          summary_index: 0,
          part: { type: 'summary_text', text: '' },
        });
        const text = reply.reasoning?.text ?? '';
        for (const delta of splitText(text))
          event('response.reasoning_summary_text.delta', { item_id: itemId, output_index: outputIndex, summary_index: 0, delta });
        event('response.reasoning_summary_text.done', { item_id: itemId, output_index: outputIndex, summary_index: 0, text });
        event('response.reasoning_summary_part.done', { item_id: itemId, output_index: outputIndex, summary_index: 0, part: { type: 'summary_text', text } });
        break;
      }
      case 'message': {
        const text = reply.text ?? '';
        event('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } });
        event('response.content_part.added', {
          item_id: itemId,
          output_index: outputIndex,
          content_index: 0,
          part: { type: 'output_text', annotations: [], logprobs: [], text: '' },
        });
        for (const delta of splitText(text))
          event('response.output_text.delta', { item_id: itemId, output_index: outputIndex, content_index: 0, delta, logprobs: [] });
        event('response.output_text.done', { item_id: itemId, output_index: outputIndex, content_index: 0, text, logprobs: [] });
        event('response.content_part.done', {
          item_id: itemId,
          output_index: outputIndex,
          content_index: 0,
          part: { type: 'output_text', annotations: [], logprobs: [], text },
        });
        break;
      }
      case 'function_call': {
        const argumentsText = item.arguments as string;
        event('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', arguments: '' } });
        for (const delta of splitArguments(argumentsText))
          event('response.function_call_arguments.delta', { item_id: itemId, output_index: outputIndex, delta });
        event('response.function_call_arguments.done', { item_id: itemId, output_index: outputIndex, arguments: argumentsText });
        break;
      }
      default:
        throw new Error(`unexpected item ${String(item.type)}`);
    }
    event('response.output_item.done', { output_index: outputIndex, item });
  });
  const finalStatus = reply.finish === 'length' ? 'incomplete' : 'completed';
  event(`response.${finalStatus}`, { response: responseObject(model, finalStatus, items, reply) });
  return { status: 200, format: 'sse', body };
};
