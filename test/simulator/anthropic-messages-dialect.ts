import type { Dialect, StreamRendering } from './dialect.ts';
import type { SimulatorFinish, SimulatorUsage } from './simulator-script.ts';
import { namedFrame } from './sse-frame.ts';
import type { TurnPlan } from './turn-plan.ts';

function stopReason(finish: SimulatorFinish): string {
  switch (finish) {
    case 'stop':
      return 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default: {
      const unreachable: never = finish;
      return unreachable;
    }
  }
}

/** Anthropic counts uncached input apart from cache reads and writes. */
function anthropicUsage(usage: SimulatorUsage, outputTokens: number) {
  const cacheRead = usage.cacheRead ?? 0;
  const cacheWrite = usage.cacheWrite ?? 0;
  return {
    input_tokens: Math.max(0, usage.input - cacheRead - cacheWrite),
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
    cache_creation: { ephemeral_5m_input_tokens: cacheWrite, ephemeral_1h_input_tokens: 0 },
    output_tokens: outputTokens,
    service_tier: 'standard',
    ...outputDetails(usage),
  };
}

function outputDetails(usage: SimulatorUsage) {
  return usage.reasoning === undefined ? {} : { output_tokens_details: { thinking_tokens: usage.reasoning } };
}

function toolUseId(plan: TurnPlan, index: number): string {
  return plan.toolCalls[index]?.id ?? `toolu_${plan.sequenceId}_${index}`;
}

// The real API signs every thinking block over its text; a scripted signature counts as issued.
// Claude on Bedrock signs the same way (bedrock-converse-dialect.ts uses this too).
const signatures = new WeakMap<TurnPlan, string>();
export function claudeSignature(plan: TurnPlan): string {
  const known = signatures.get(plan);
  if (known !== undefined) return known;
  const text = plan.reasoning?.text ?? '';
  const scripted = plan.reasoning?.signature;
  if (scripted !== undefined) plan.seal.registerScripted(scripted, text);
  const issued = scripted ?? plan.seal.anthropicSignature(text);
  signatures.set(plan, issued);
  return issued;
}

function renderBody(plan: TurnPlan): unknown {
  const content: unknown[] = [];
  if (plan.reasoning !== undefined) {
    content.push({ type: 'thinking', thinking: plan.reasoning.text, signature: claudeSignature(plan) });
  }
  if (plan.text !== '') content.push({ type: 'text', text: plan.text });
  plan.toolCalls.forEach((call, index) => {
    content.push({ type: 'tool_use', id: toolUseId(plan, index), name: call.name, input: call.arguments });
  });
  return {
    id: `msg_${plan.sequenceId}`,
    type: 'message',
    role: 'assistant',
    model: plan.model,
    content,
    stop_reason: stopReason(plan.finish),
    stop_sequence: null,
    stop_details: null,
    usage: anthropicUsage(plan.usage, plan.usage.output),
  };
}

function renderStream(plan: TurnPlan, options: { omitTerminal: boolean }): StreamRendering {
  const frames: string[] = [];
  const emit = (type: string, fields: Record<string, unknown> = {}) => {
    frames.push(namedFrame(type, { type, ...fields }));
  };
  emit('message_start', {
    message: {
      id: `msg_${plan.sequenceId}`,
      type: 'message',
      role: 'assistant',
      model: plan.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      stop_details: null,
      usage: anthropicUsage({ ...plan.usage, reasoning: undefined }, 1),
    },
  });
  emit('ping');
  let index = 0;
  if (plan.reasoning !== undefined) {
    emit('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    for (const thinking of plan.reasoning.chunks) {
      emit('content_block_delta', { index, delta: { type: 'thinking_delta', thinking } });
    }
    emit('content_block_delta', { index, delta: { type: 'signature_delta', signature: claudeSignature(plan) } });
    emit('content_block_stop', { index });
    index += 1;
  }
  if (plan.text !== '') {
    emit('content_block_start', { index, content_block: { type: 'text', text: '' } });
    for (const text of plan.textChunks) emit('content_block_delta', { index, delta: { type: 'text_delta', text } });
    emit('content_block_stop', { index });
    index += 1;
  }
  plan.toolCalls.forEach((call, callIndex) => {
    emit('content_block_start', {
      index,
      content_block: { type: 'tool_use', id: toolUseId(plan, callIndex), name: call.name, input: {} },
    });
    // The real API opens every tool_use with an empty fragment.
    for (const partial_json of ['', ...call.fragments]) {
      emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
    }
    emit('content_block_stop', { index });
    index += 1;
  });
  emit('message_delta', {
    delta: { stop_reason: stopReason(plan.finish), stop_sequence: null, stop_details: null },
    usage: { output_tokens: plan.usage.output, ...outputDetails(plan.usage) },
  });
  if (!options.omitTerminal) emit('message_stop');
  return { contentType: 'text/event-stream; charset=utf-8', frames };
}

function renderStreamError(): string {
  return namedFrame('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
}

export const anthropicMessagesDialect: Dialect = { renderBody, renderStream, renderStreamError };
