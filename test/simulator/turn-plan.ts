import type { ReasoningSeal } from './reasoning-seal.ts';
import type { RecordedRequest } from './recorded-request.ts';
import type { SimulatorFinish, SimulatorScript, SimulatorUsage } from './simulator-script.ts';
import { DEFAULT_TEXT } from './simulator-script.ts';
import { splitIntoPieces, splitIntoWords } from './split-text.ts';

export interface PlannedToolCall {
  /** As scripted; each dialect makes up its own id style when absent. */
  id: string | undefined;
  name: string;
  arguments: Record<string, unknown>;
  argumentsJson: string;
  /** The arguments JSON in several pieces, for dialects that stream arguments. */
  fragments: readonly string[];
}

export interface PlannedReasoning {
  text: string;
  chunks: readonly string[];
  signature: string | undefined;
}

/** One answer, resolved for one request: everything a dialect needs to render it. */
export interface TurnPlan {
  request: RecordedRequest;
  model: string;
  /** Unique per request; dialects prefix it (chatcmpl-, msg_, resp_). */
  sequenceId: string;
  createdSeconds: number;
  text: string;
  textChunks: readonly string[];
  reasoning: PlannedReasoning | undefined;
  toolCalls: readonly PlannedToolCall[];
  finish: SimulatorFinish;
  usage: SimulatorUsage;
  /** Signs what the answer hands out (thinking signatures, thought signatures, encrypted reasoning). */
  seal: ReasoningSeal;
}

interface PreparedParts {
  textChunks: string[] | undefined;
  reasoning: PlannedReasoning | undefined;
  toolCalls: PlannedToolCall[];
}

const ARGUMENT_FRAGMENTS = 3;

// Scripts are reused across many requests in load tests: split their text once.
const prepared = new WeakMap<SimulatorScript, PreparedParts>();

function prepare(script: SimulatorScript): PreparedParts {
  const cached = prepared.get(script);
  if (cached !== undefined) return cached;
  const staticText = typeof script.text === 'function' ? undefined : resolveText(script, script.text);
  const parts: PreparedParts = {
    textChunks: staticText === undefined ? undefined : chunkText(staticText, script.chunks),
    reasoning:
      script.reasoning === undefined
        ? undefined
        : {
            text: script.reasoning.text,
            chunks: splitIntoWords(script.reasoning.text),
            signature: script.reasoning.signature,
          },
    toolCalls: (script.toolCalls ?? []).map((call) => {
      const argumentsJson = JSON.stringify(call.arguments);
      return {
        id: call.id,
        name: call.name,
        arguments: call.arguments,
        argumentsJson,
        fragments: splitIntoPieces(argumentsJson, ARGUMENT_FRAGMENTS),
      };
    }),
  };
  prepared.set(script, parts);
  return parts;
}

function resolveText(script: SimulatorScript, text: string | undefined): string {
  if (text !== undefined) return text;
  return (script.toolCalls?.length ?? 0) > 0 ? '' : DEFAULT_TEXT;
}

function chunkText(text: string, chunks: number | undefined): string[] {
  return chunks === undefined ? splitIntoWords(text) : splitIntoPieces(text, chunks);
}

function estimateTokens(characters: number): number {
  return Math.max(1, Math.ceil(characters / 4));
}

export function planTurn(
  script: SimulatorScript,
  request: RecordedRequest,
  identity: { model: string; sequenceId: string; createdSeconds: number; seal: ReasoningSeal },
): TurnPlan {
  const parts = prepare(script);
  let text: string;
  let textChunks: readonly string[];
  if (typeof script.text === 'function') {
    text = script.text(request);
    textChunks = chunkText(text, script.chunks);
  } else {
    text = resolveText(script, script.text);
    textChunks = parts.textChunks ?? [];
  }
  const finish = script.finish ?? (parts.toolCalls.length > 0 ? 'tool_calls' : 'stop');
  return {
    request,
    ...identity,
    text,
    textChunks,
    reasoning: parts.reasoning,
    toolCalls: parts.toolCalls,
    finish,
    usage: script.usage ?? estimateUsage(request, text, parts),
  };
}

function estimateUsage(request: RecordedRequest, text: string, parts: PreparedParts): SimulatorUsage {
  const reasoningCharacters = parts.reasoning?.text.length ?? 0;
  const toolCharacters = parts.toolCalls.reduce((sum, call) => sum + call.name.length + call.argumentsJson.length, 0);
  const usage: SimulatorUsage = {
    input: estimateTokens(request.rawBody.length),
    output: estimateTokens(text.length + reasoningCharacters + toolCharacters),
  };
  if (parts.reasoning !== undefined) usage.reasoning = estimateTokens(reasoningCharacters);
  return usage;
}
