import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { claudeSignature } from './anthropic-messages-dialect.ts';
import type { Dialect, StreamRendering } from './dialect.ts';
import type { SimulatorFinish, SimulatorUsage } from './simulator-script.ts';
import type { TurnPlan } from './turn-plan.ts';

const codec = new EventStreamCodec(toUtf8, fromUtf8);

// Claude on Bedrock signs each reasoning block over its text, as on Anthropic's API (the
// reasoning rules verify it when it comes back).
const signature = claudeSignature;

function stopReason(finish: SimulatorFinish): string {
  switch (finish) {
    case 'stop':
      return 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
      return 'tool_use';
    case 'content_filter':
      return 'content_filtered';
    default: {
      const unreachable: never = finish;
      return unreachable;
    }
  }
}

/** Converse reports uncached input apart from cache reads and writes, like Anthropic. */
function converseUsage(usage: SimulatorUsage) {
  const cacheRead = usage.cacheRead ?? 0;
  const cacheWrite = usage.cacheWrite ?? 0;
  const inputTokens = Math.max(0, usage.input - cacheRead - cacheWrite);
  return {
    inputTokens,
    outputTokens: usage.output,
    totalTokens: inputTokens + usage.output + cacheRead + cacheWrite,
    ...(usage.cacheRead === undefined ? {} : { cacheReadInputTokens: cacheRead }),
    ...(usage.cacheWrite === undefined ? {} : { cacheWriteInputTokens: cacheWrite }),
  };
}

function toolUseId(plan: TurnPlan, index: number): string {
  return plan.toolCalls[index]?.id ?? `tooluse_${plan.sequenceId}${index}`;
}

function renderBody(plan: TurnPlan): unknown {
  const content: unknown[] = [];
  if (plan.reasoning !== undefined) {
    content.push({ reasoningContent: { reasoningText: { text: plan.reasoning.text, signature: signature(plan) } } });
  }
  if (plan.text !== '') content.push({ text: plan.text });
  plan.toolCalls.forEach((call, index) => {
    content.push({ toolUse: { toolUseId: toolUseId(plan, index), name: call.name, input: call.arguments } });
  });
  return {
    output: { message: { role: 'assistant', content } },
    stopReason: stopReason(plan.finish),
    usage: converseUsage(plan.usage),
    metrics: { latencyMs: 120 },
  };
}

/** One AWS event-stream frame, as a latin1 string so it travels through the string-based writer byte for byte. */
export function eventFrame(eventType: string, payload: Record<string, unknown>): string {
  const bytes = codec.encode({
    headers: {
      ':event-type': { type: 'string', value: eventType },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'event' },
    },
    body: fromUtf8(JSON.stringify(payload)),
  });
  return Buffer.from(bytes).toString('latin1');
}

export function exceptionFrame(exceptionType: string, message: string): string {
  const bytes = codec.encode({
    headers: {
      ':exception-type': { type: 'string', value: exceptionType },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'exception' },
    },
    body: fromUtf8(JSON.stringify({ message })),
  });
  return Buffer.from(bytes).toString('latin1');
}

/** Bedrock pads every event with a `p` field of varying length (it hides token sizes); clients must ignore it. */
function padding(index: number): string {
  return 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456'.slice(0, 5 + (index % 40));
}

function renderStream(plan: TurnPlan, options: { omitTerminal: boolean }): StreamRendering {
  const frames: string[] = [];
  const emit = (type: string, fields: Record<string, unknown>) => frames.push(eventFrame(type, { ...fields, p: padding(frames.length) }));
  emit('messageStart', { role: 'assistant' });
  let index = 0;
  if (plan.reasoning !== undefined) {
    for (const text of plan.reasoning.chunks) emit('contentBlockDelta', { contentBlockIndex: index, delta: { reasoningContent: { text } } });
    emit('contentBlockDelta', { contentBlockIndex: index, delta: { reasoningContent: { signature: signature(plan) } } });
    emit('contentBlockStop', { contentBlockIndex: index });
    index += 1;
  }
  if (plan.text !== '') {
    for (const text of plan.textChunks) emit('contentBlockDelta', { contentBlockIndex: index, delta: { text } });
    emit('contentBlockStop', { contentBlockIndex: index });
    index += 1;
  }
  plan.toolCalls.forEach((call, callIndex) => {
    emit('contentBlockStart', { contentBlockIndex: index, start: { toolUse: { toolUseId: toolUseId(plan, callIndex), name: call.name } } });
    for (const input of call.fragments) emit('contentBlockDelta', { contentBlockIndex: index, delta: { toolUse: { input } } });
    emit('contentBlockStop', { contentBlockIndex: index });
    index += 1;
  });
  if (!options.omitTerminal) {
    emit('messageStop', { stopReason: stopReason(plan.finish) });
    emit('metadata', { usage: converseUsage(plan.usage), metrics: { latencyMs: 120 } });
  }
  return { contentType: 'application/vnd.amazon.eventstream', frames, binary: true };
}

function renderStreamError(): string {
  return exceptionFrame('serviceUnavailableException', 'Bedrock is unable to process your request.');
}

export const bedrockConverseDialect: Dialect = { renderBody, renderStream, renderStreamError };
