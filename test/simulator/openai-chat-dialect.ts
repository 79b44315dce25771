import type { Dialect, StreamRendering } from './dialect.ts';
import type { SimulatorUsage } from './simulator-script.ts';
import { dataFrame } from './sse-frame.ts';
import type { TurnPlan } from './turn-plan.ts';

// Not official OpenAI, but what DeepSeek and OpenAI-compatible hosts send for thinking text.
const REASONING_FIELD = 'reasoning_content';

export function openAiUsage(usage: SimulatorUsage) {
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cacheRead ?? 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoning ?? 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function toolCallId(plan: TurnPlan, index: number): string {
  return plan.toolCalls[index]?.id ?? `call_${plan.sequenceId}_${index}`;
}

/** OpenAI sends null content for a turn that only calls tools. */
function onlyCallsTools(plan: TurnPlan): boolean {
  return plan.text === '' && plan.toolCalls.length > 0;
}

function includeUsage(plan: TurnPlan): boolean {
  const body = plan.request.body as { stream_options?: { include_usage?: unknown } } | null;
  return body?.stream_options?.include_usage === true;
}

function renderBody(plan: TurnPlan): unknown {
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: onlyCallsTools(plan) ? null : plan.text,
    refusal: null,
    annotations: [],
  };
  if (plan.reasoning !== undefined) message[REASONING_FIELD] = plan.reasoning.text;
  if (plan.toolCalls.length > 0) {
    message.tool_calls = plan.toolCalls.map((call, index) => ({
      id: toolCallId(plan, index),
      type: 'function',
      function: { name: call.name, arguments: call.argumentsJson },
    }));
  }
  return {
    id: `chatcmpl-${plan.sequenceId}`,
    object: 'chat.completion',
    created: plan.createdSeconds,
    model: plan.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: plan.finish }],
    usage: openAiUsage(plan.usage),
    service_tier: 'default',
    system_fingerprint: 'fp_simulator',
  };
}

function renderStream(plan: TurnPlan, options: { omitTerminal: boolean }): StreamRendering {
  const withUsage = includeUsage(plan);
  const head = {
    id: `chatcmpl-${plan.sequenceId}`,
    object: 'chat.completion.chunk',
    created: plan.createdSeconds,
    model: plan.model,
    service_tier: 'default',
    system_fingerprint: 'fp_simulator',
  };
  // With include_usage every chunk carries `usage: null` except the final usage chunk.
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    dataFrame({
      ...head,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(withUsage ? { usage: null } : {}),
    });
  const frames = [chunk({ role: 'assistant', content: onlyCallsTools(plan) ? null : '', refusal: null })];
  for (const piece of plan.reasoning?.chunks ?? []) frames.push(chunk({ [REASONING_FIELD]: piece }));
  for (const piece of plan.textChunks) frames.push(chunk({ content: piece }));
  plan.toolCalls.forEach((call, index) => {
    frames.push(
      chunk({
        tool_calls: [{ index, id: toolCallId(plan, index), type: 'function', function: { name: call.name, arguments: '' } }],
      }),
    );
    for (const fragment of call.fragments) {
      frames.push(chunk({ tool_calls: [{ index, function: { arguments: fragment } }] }));
    }
  });
  frames.push(chunk({}, plan.finish));
  if (withUsage) frames.push(dataFrame({ ...head, choices: [], usage: openAiUsage(plan.usage) }));
  if (!options.omitTerminal) frames.push('data: [DONE]\n\n');
  return { contentType: 'text/event-stream; charset=utf-8', frames };
}

function renderStreamError(): string {
  return dataFrame({
    error: {
      message: 'The server had an error while processing your request. Sorry about that!',
      type: 'server_error',
      param: null,
      code: null,
    },
  });
}

export const openAiChatDialect: Dialect = { renderBody, renderStream, renderStreamError };
