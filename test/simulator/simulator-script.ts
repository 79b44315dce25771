import type { RecordedRequest } from './recorded-request.ts';

/** How the simulated model ends its turn, in provider-neutral terms (each dialect maps it). */
export type SimulatorFinish = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/**
 * Token counts in one convention (the gateway's canonical one): `input` is the whole prompt
 * including cache reads and writes, `output` everything generated including reasoning.
 * Dialects split them the way the provider does (Anthropic reports uncached input apart).
 */
export interface SimulatorUsage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  reasoning?: number;
}

export interface SimulatorToolCall {
  id?: string;
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * Misbehaviour on demand. "Chunks" are stream frames as written to the socket: one SSE event
 * (or one element of Gemini's streamed JSON array), counted from the first.
 */
export type SimulatorFault =
  | { type: 'status'; status: number; message?: string; retryAfter?: number }
  | { type: 'hang' }
  | { type: 'reset'; afterChunks?: number }
  | { type: 'stall'; afterChunks: number }
  | { type: 'malformed'; afterChunks?: number; kind: 'truncated-json' | 'missing-done' | 'missing-stop' }
  | { type: 'error-mid-stream'; afterChunks: number };

export interface SimulatorScript {
  /** Default: 'Hello from the simulator.' when there are no tool calls, otherwise no text. */
  text?: string | ((request: RecordedRequest) => string);
  reasoning?: { text: string; signature?: string };
  toolCalls?: SimulatorToolCall[];
  /** Default: 'tool_calls' when there are tool calls, otherwise 'stop'. */
  finish?: SimulatorFinish;
  /** Default: estimated from the request body size and the answer's length. */
  usage?: SimulatorUsage;
  /** How many text deltas to stream; default one per word. */
  chunks?: number;
  delayMs?: number;
  chunkDelayMs?: number;
  fault?: SimulatorFault;
}

export const DEFAULT_TEXT = 'Hello from the simulator.';
