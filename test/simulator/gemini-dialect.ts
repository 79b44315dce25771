import type { Dialect, StreamRendering } from './dialect.ts';
import type { SimulatorFinish, SimulatorUsage } from './simulator-script.ts';
import { dataFrame } from './sse-frame.ts';
import type { TurnPlan } from './turn-plan.ts';
import { isGemini3 } from './reasoning-rules.ts';

type Part = Record<string, unknown>;

function finishReason(finish: SimulatorFinish): string {
  switch (finish) {
    case 'stop':
    case 'tool_calls': // Gemini has no tool finish reason: calls come with STOP.
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    case 'content_filter':
      return 'SAFETY';
    default: {
      const unreachable: never = finish;
      return unreachable;
    }
  }
}

/** candidatesTokenCount excludes thoughts; the total adds both. */
function usageMetadata(usage: SimulatorUsage): Record<string, unknown> {
  const metadata: Record<string, unknown> = {
    promptTokenCount: usage.input,
    candidatesTokenCount: Math.max(0, usage.output - (usage.reasoning ?? 0)),
    totalTokenCount: usage.input + usage.output,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: usage.input }],
  };
  if (usage.cacheRead !== undefined) metadata.cachedContentTokenCount = usage.cacheRead;
  if (usage.reasoning !== undefined && usage.reasoning > 0) metadata.thoughtsTokenCount = usage.reasoning;
  return metadata;
}

// Mid-stream chunks report the prompt only; the last one carries the whole count.
function partialUsageMetadata(usage: SimulatorUsage): Record<string, unknown> {
  return {
    promptTokenCount: usage.input,
    totalTokenCount: usage.input,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: usage.input }],
  };
}

function functionCallParts(plan: TurnPlan): Part[] {
  // AI Studio usually leaves functionCall.id out; only a scripted id is sent.
  return plan.toolCalls.map((call) => ({
    functionCall: call.id === undefined ? { name: call.name, args: call.arguments } : { id: call.id, name: call.name, args: call.arguments },
  }));
}

// Gemini 3 always signs (it always thinks); older models only when a signature is scripted.
const signatures = new WeakMap<TurnPlan, string | undefined>();
function planSignature(plan: TurnPlan): string | undefined {
  if (signatures.has(plan)) return signatures.get(plan);
  const scripted = plan.reasoning?.signature;
  if (scripted !== undefined) plan.seal.registerScripted(scripted);
  const signature = scripted ?? (isGemini3(plan.model) ? plan.seal.geminiSignature() : undefined);
  signatures.set(plan, signature);
  return signature;
}

/** Gemini signs the first answer part after its thoughts: the first function call, else the text. */
function signFirst(parts: Part[], plan: TurnPlan): Part[] {
  const signature = planSignature(plan);
  if (signature === undefined) return parts;
  const target = parts.findIndex((part) => 'functionCall' in part);
  const index = target >= 0 ? target : parts.findIndex((part) => part.thought !== true);
  if (index < 0) return parts;
  return parts.map((part, at) => (at === index ? { ...part, thoughtSignature: signature } : part));
}

function envelope(plan: TurnPlan, parts: Part[], final: boolean): Record<string, unknown> {
  const candidate: Record<string, unknown> = { content: { parts, role: 'model' } };
  if (final) candidate.finishReason = finishReason(plan.finish);
  candidate.index = 0;
  return {
    candidates: [candidate],
    usageMetadata: final ? usageMetadata(plan.usage) : partialUsageMetadata(plan.usage),
    modelVersion: plan.model,
    responseId: plan.sequenceId,
  };
}

function renderBody(plan: TurnPlan): unknown {
  const parts: Part[] = [];
  if (plan.reasoning !== undefined) parts.push({ text: plan.reasoning.text, thought: true });
  if (plan.text !== '') parts.push({ text: plan.text });
  parts.push(...functionCallParts(plan));
  if (parts.length === 0) parts.push({ text: '' });
  return envelope(plan, signFirst(parts, plan), true);
}

function streamedParts(plan: TurnPlan): Part[][] {
  const chunks: Part[][] = [];
  for (const text of plan.reasoning?.chunks ?? []) chunks.push([{ text, thought: true }]);
  for (const text of plan.textChunks) chunks.push([{ text }]);
  // Unlike other providers, Gemini never streams arguments: each call arrives whole.
  if (plan.toolCalls.length > 0) chunks.push(functionCallParts(plan));
  if (chunks.length === 0) chunks.push([{ text: '' }]);
  const signature = planSignature(plan);
  if (signature !== undefined) {
    const first = chunks.findIndex((parts) => parts.some((part) => part.thought !== true));
    if (first >= 0) chunks[first] = signFirst(chunks[first]!, plan);
  }
  return chunks;
}

function isSse(plan: TurnPlan): boolean {
  return plan.request.query.alt === 'sse';
}

function renderStream(plan: TurnPlan, options: { omitTerminal: boolean }): StreamRendering {
  const chunks = streamedParts(plan);
  const payloads = chunks.map((parts, index) => envelope(plan, parts, index === chunks.length - 1 && !options.omitTerminal));
  if (isSse(plan)) {
    return { contentType: 'text/event-stream', frames: payloads.map((payload) => dataFrame(payload, '\r\n')) };
  }
  // Without alt=sse the body is one JSON array streamed element by element.
  const frames = payloads.map((payload, index) => `${index === 0 ? '[' : '\n,\r\n'}${JSON.stringify(payload)}`);
  if (!options.omitTerminal) frames.push('\n]');
  return { contentType: 'application/json; charset=UTF-8', frames };
}

function renderStreamError(plan: TurnPlan, framesWritten: number): string {
  const error = { error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' } };
  if (isSse(plan)) return dataFrame(error, '\r\n');
  return `${framesWritten === 0 ? '[' : '\n,\r\n'}${JSON.stringify(error)}\n]`;
}

export const geminiDialect: Dialect = { renderBody, renderStream, renderStreamError };
