import type { Dialect, StreamRendering } from './dialect.ts';
import type { SimulatorUsage } from './simulator-script.ts';
import { namedFrame } from './sse-frame.ts';
import type { TurnPlan } from './turn-plan.ts';

type Item = Record<string, unknown>;

function responsesUsage(usage: SimulatorUsage) {
  return {
    input_tokens: usage.input,
    input_tokens_details: { cached_tokens: usage.cacheRead ?? 0 },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
    total_tokens: usage.input + usage.output,
  };
}

function requestField(plan: TurnPlan, name: string): unknown {
  const body = plan.request.body;
  return body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
}

// Like the real API, encrypted reasoning is returned only when the caller asked for it.
function wantsEncryptedReasoning(plan: TurnPlan): boolean {
  const include = requestField(plan, 'include');
  return Array.isArray(include) && include.includes('reasoning.encrypted_content');
}

function reasoningItem(plan: TurnPlan, summaryText: string | undefined): Item {
  const item: Item = { id: `rs_${plan.sequenceId}`, type: 'reasoning', summary: [] as unknown[] };
  if (summaryText !== undefined) item.summary = [{ type: 'summary_text', text: summaryText }];
  if (summaryText !== undefined && wantsEncryptedReasoning(plan)) item.encrypted_content = encryptedContent(plan);
  return item;
}

// Encrypted once per answer, so the streamed and final items agree; a scripted value counts as issued.
const encrypted = new WeakMap<TurnPlan, string>();
function encryptedContent(plan: TurnPlan): string {
  const known = encrypted.get(plan);
  if (known !== undefined) return known;
  const scripted = plan.reasoning?.signature;
  if (scripted !== undefined) plan.seal.registerScripted(scripted);
  const value = scripted ?? plan.seal.responsesEncrypted();
  encrypted.set(plan, value);
  return value;
}

function messageItem(plan: TurnPlan, done: boolean): Item {
  return {
    id: `msg_${plan.sequenceId}`,
    type: 'message',
    status: done ? 'completed' : 'in_progress',
    content: done ? [outputText(plan.text)] : [],
    role: 'assistant',
  };
}

function outputText(text: string): Item {
  return { type: 'output_text', annotations: [], logprobs: [], text };
}

function functionCallItem(plan: TurnPlan, index: number, done: boolean): Item {
  const call = plan.toolCalls[index]!;
  // A call made after reasoning may only come back together with that reasoning item.
  if (plan.reasoning !== undefined) plan.seal.rememberCall(`fc_${plan.sequenceId}_${index}`, `rs_${plan.sequenceId}`);
  return {
    id: `fc_${plan.sequenceId}_${index}`,
    type: 'function_call',
    status: done ? 'completed' : 'in_progress',
    arguments: done ? call.argumentsJson : '',
    call_id: call.id ?? `call_${plan.sequenceId}_${index}`,
    name: call.name,
  };
}

function finalOutput(plan: TurnPlan): Item[] {
  const output: Item[] = [];
  if (plan.reasoning !== undefined) output.push(reasoningItem(plan, plan.reasoning.text));
  if (plan.text !== '') output.push(messageItem(plan, true));
  plan.toolCalls.forEach((_, index) => output.push(functionCallItem(plan, index, true)));
  return output;
}

function outcome(plan: TurnPlan): { status: string; incompleteDetails: unknown } {
  switch (plan.finish) {
    case 'stop':
    case 'tool_calls':
      return { status: 'completed', incompleteDetails: null };
    case 'length':
      return { status: 'incomplete', incompleteDetails: { reason: 'max_output_tokens' } };
    case 'content_filter':
      return { status: 'incomplete', incompleteDetails: { reason: 'content_filter' } };
    default: {
      const unreachable: never = plan.finish;
      return unreachable;
    }
  }
}

function responseObject(plan: TurnPlan, state: 'in_progress' | 'final'): Item {
  const final = state === 'final' ? outcome(plan) : { status: 'in_progress', incompleteDetails: null };
  return {
    id: `resp_${plan.sequenceId}`,
    object: 'response',
    created_at: plan.createdSeconds,
    status: final.status,
    background: false,
    error: null,
    incomplete_details: final.incompleteDetails,
    instructions: requestField(plan, 'instructions') ?? null,
    max_output_tokens: requestField(plan, 'max_output_tokens') ?? null,
    model: plan.model,
    output: state === 'final' ? finalOutput(plan) : [],
    parallel_tool_calls: requestField(plan, 'parallel_tool_calls') ?? true,
    previous_response_id: requestField(plan, 'previous_response_id') ?? null,
    reasoning: { effort: null, summary: null },
    store: requestField(plan, 'store') ?? true,
    temperature: requestField(plan, 'temperature') ?? 1,
    text: { format: { type: 'text' } },
    tool_choice: requestField(plan, 'tool_choice') ?? 'auto',
    tools: requestField(plan, 'tools') ?? [],
    top_p: requestField(plan, 'top_p') ?? 1,
    truncation: 'disabled',
    usage: state === 'final' ? responsesUsage(plan.usage) : null,
    user: null,
    metadata: {},
  };
}

function renderStream(plan: TurnPlan, options: { omitTerminal: boolean }): StreamRendering {
  const frames: string[] = [];
  const emit = (type: string, fields: Record<string, unknown>) => {
    frames.push(namedFrame(type, { type, sequence_number: frames.length, ...fields }));
  };
  emit('response.created', { response: responseObject(plan, 'in_progress') });
  emit('response.in_progress', { response: responseObject(plan, 'in_progress') });
  let outputIndex = 0;
  if (plan.reasoning !== undefined) {
    const itemId = `rs_${plan.sequenceId}`;
    const at = { item_id: itemId, output_index: outputIndex, summary_index: 0 };
    emit('response.output_item.added', { output_index: outputIndex, item: reasoningItem(plan, undefined) });
    emit('response.reasoning_summary_part.added', { ...at, part: { type: 'summary_text', text: '' } });
    for (const delta of plan.reasoning.chunks) emit('response.reasoning_summary_text.delta', { ...at, delta });
    emit('response.reasoning_summary_text.done', { ...at, text: plan.reasoning.text });
    emit('response.reasoning_summary_part.done', { ...at, part: { type: 'summary_text', text: plan.reasoning.text } });
    emit('response.output_item.done', { output_index: outputIndex, item: reasoningItem(plan, plan.reasoning.text) });
    outputIndex += 1;
  }
  if (plan.text !== '') {
    const at = { item_id: `msg_${plan.sequenceId}`, output_index: outputIndex, content_index: 0 };
    emit('response.output_item.added', { output_index: outputIndex, item: messageItem(plan, false) });
    emit('response.content_part.added', { ...at, part: outputText('') });
    for (const delta of plan.textChunks) emit('response.output_text.delta', { ...at, delta, logprobs: [] });
    emit('response.output_text.done', { ...at, text: plan.text, logprobs: [] });
    emit('response.content_part.done', { ...at, part: outputText(plan.text) });
    emit('response.output_item.done', { output_index: outputIndex, item: messageItem(plan, true) });
    outputIndex += 1;
  }
  plan.toolCalls.forEach((call, index) => {
    const at = { item_id: `fc_${plan.sequenceId}_${index}`, output_index: outputIndex };
    emit('response.output_item.added', { output_index: outputIndex, item: functionCallItem(plan, index, false) });
    for (const delta of call.fragments) emit('response.function_call_arguments.delta', { ...at, delta });
    emit('response.function_call_arguments.done', { ...at, name: call.name, arguments: call.argumentsJson });
    emit('response.output_item.done', { output_index: outputIndex, item: functionCallItem(plan, index, true) });
    outputIndex += 1;
  });
  if (!options.omitTerminal) {
    const final = responseObject(plan, 'final');
    emit(final.status === 'completed' ? 'response.completed' : 'response.incomplete', { response: final });
  }
  return { contentType: 'text/event-stream; charset=utf-8', frames };
}

function renderStreamError(_plan: TurnPlan, framesWritten: number): string {
  return namedFrame('error', {
    type: 'error',
    sequence_number: framesWritten,
    code: 'server_error',
    message: 'The server had an error while processing your request. Sorry about that!',
    param: null,
  });
}

export const openAiResponsesDialect: Dialect = {
  renderBody: (plan) => responseObject(plan, 'final'),
  renderStream,
  renderStreamError,
};
