import type { CallerCredentials } from '../access/authenticate-caller.ts';
import { authenticateCaller } from '../access/authenticate-caller.ts';
import type { Caller } from '../access/authenticate-key.ts';
import type { CredentialStyle } from '../access/extract-api-key.ts';
import { credentialStyleOf } from '../protocols/codec-registry.ts';
import { authorizeModel } from '../access/authorize-model.ts';
import { admitGeneration, planAdmission } from '../billing/admit-generation.ts';
import { estimateRequest } from '../billing/estimate-reservation.ts';
import { ESTIMATED_USAGE_WARNING } from '../billing/bill-delivered-usage.ts';
import type { ChatRequest } from '../core/chat-request.ts';
import type { EmbeddingRequest, EmbeddingResult } from '../core/embedding.ts';
import { estimateTextTokens } from '../billing/estimate-tokens.ts';
import { GatewayError } from '../core/gateway-error.ts';
import type { Usage } from '../core/usage.ts';
import {
  decodeGeminiBatchEmbedContentsRequest,
  decodeGeminiEmbedContentRequest,
  decodeOpenAiEmbeddingRequest,
  encodeGeminiBatchEmbedContentsResponse,
  encodeGeminiEmbedContentResponse,
  encodeOpenAiEmbeddingResponse,
  type OpenAiEncodingFormat,
} from '../protocols/embeddings/index.ts';
import { relayEmbeddings } from '../relay/relay-embeddings.ts';
import { orderAttempts } from '../relay/routing/order-attempts.ts';
import type { GenerationDeps } from './run-generation.ts';
import { WholeReplyLedger } from './whole-reply-ledger.ts';

/** The embeddings surfaces: OpenAI's `/v1/embeddings` and Gemini's two methods. */
export type EmbeddingSurface = 'openai-embeddings' | 'gemini-embed-content' | 'gemini-batch-embed-contents';

export interface EmbeddingsCall {
  requestId: string;
  surface: EmbeddingSurface;
  /** The path prefix surface (`antigravity`) or null for the root surfaces. */
  prefix: string | null;
  body: unknown;
  /** Gemini names the model in the path. */
  pathModel?: string;
  credentials: CallerCredentials;
  /** The caller when the route authenticated the key already (from the headers, before the body). */
  caller?: Caller;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

export interface EmbeddingsReply {
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** Each embeddings surface reads the key where its protocol's clients put it. */
const CREDENTIALS: Record<EmbeddingSurface, CredentialStyle> = {
  'openai-embeddings': credentialStyleOf('openai-chat'),
  'gemini-embed-content': credentialStyleOf('gemini-generate-content'),
  'gemini-batch-embed-contents': credentialStyleOf('gemini-generate-content'),
};

/**
 * The embeddings pipeline, framework-free and whole-reply (nothing streams): authenticate,
 * decode, authorise the model for the key's group, admit it under the same price, limits and
 * balance as generation (input only: an embedding has no output tokens), relay over the
 * model's channels, settle the exact cost of the input tokens and record one usage row.
 * Refusals are thrown as GatewayErrors for the framework to render in the caller's shape.
 */
export async function runEmbeddings(deps: GenerationDeps, call: EmbeddingsCall): Promise<EmbeddingsReply> {
  const ledger = new WholeReplyLedger(deps, call, call.surface, call.pathModel ?? null);
  try {
    const caller = call.caller ?? authenticateCaller(deps.snapshot.current, deps.runtime.now(), call.credentials, CREDENTIALS[call.surface]);
    const { request, encodingFormat } = decodeCall(call);
    const model = request.model;
    ledger.caller = caller;
    ledger.model = model;
    const channels = authorizeModel(deps.snapshot.current, caller, model, call.prefix, { revealOtherGroups: deps.settings?.revealOtherGroupModels === true });
    const admission = await admitGeneration(deps, planAdmission(deps, caller, model), () => estimateRequest(estimateAsChat(request)));
    ledger.admission = admission;

    const key = caller.key;
    const relayed = await relayEmbeddings(deps.relay, {
      request,
      publicModel: model,
      channels: orderAttempts(channels, deps.runtime.random),
      signal: call.signal,
      // A batch split into one call per text is that many requests to the key's limits.
      beforeFanOut: (extraCalls) => deps.access.rateLimiter.takeRequests(key, extraCalls),
    });
    const warnings = [...admission.warnings];
    let usage: Usage | undefined;
    if (relayed.result !== undefined) {
      // The Gemini API does not count embedding tokens; bill the local estimate and say so.
      const reported = relayed.result.inputTokens;
      if (reported === undefined) warnings.push(ESTIMATED_USAGE_WARNING);
      usage = { inputTokens: reported ?? request.inputs.reduce((sum, text) => sum + estimateTextTokens(text), 0), outputTokens: 0 };
    }
    const costMicros = await admission.finish(usage);
    ledger.record({ kind: 'relayed', result: relayed, firstByteAt: undefined, usage, costMicros }, warnings);
    if (relayed.error !== undefined || relayed.result === undefined) {
      throw relayed.error ?? new GatewayError('internal_error', 'The embeddings relay ended without a result.');
    }
    const headers: Record<string, string> = { 'x-request-id': call.requestId };
    const allWarnings = [...new Set([...relayed.warnings, ...warnings])];
    if (allWarnings.length > 0) headers['x-switchyard-warnings'] = allWarnings.join(', ');
    return { headers, body: encodeReply(call.surface, relayed.result, model, encodingFormat, usage?.inputTokens ?? 0) };
  } catch (thrown) {
    throw await ledger.refuse(thrown, 'embeddings');
  }
}

function decodeCall(call: EmbeddingsCall): { request: EmbeddingRequest; encodingFormat: OpenAiEncodingFormat } {
  switch (call.surface) {
    case 'openai-embeddings':
      return decodeOpenAiEmbeddingRequest(call.body);
    case 'gemini-embed-content':
      return { request: decodeGeminiEmbedContentRequest(call.body, call.pathModel ?? ''), encodingFormat: 'float' };
    case 'gemini-batch-embed-contents':
      return { request: decodeGeminiBatchEmbedContentsRequest(call.body, call.pathModel ?? ''), encodingFormat: 'float' };
  }
}

function encodeReply(
  surface: EmbeddingSurface,
  result: EmbeddingResult,
  model: string,
  format: OpenAiEncodingFormat,
  inputTokens: number,
): Record<string, unknown> {
  switch (surface) {
    case 'openai-embeddings':
      return encodeOpenAiEmbeddingResponse(result, model, format, inputTokens);
    case 'gemini-embed-content':
      return encodeGeminiEmbedContentResponse(result);
    case 'gemini-batch-embed-contents':
      return encodeGeminiBatchEmbedContentsResponse(result);
  }
}

/**
 * The admission estimates from a chat request; an embeddings request is its texts as user
 * turns with no output allowance, so the hold covers the input bound and nothing more.
 */
function estimateAsChat(request: EmbeddingRequest): ChatRequest {
  return {
    model: request.model,
    system: [],
    messages: request.inputs.map((text) => ({ role: 'user', content: [{ type: 'text', text }] })),
    tools: [],
    maxOutputTokens: 0,
    stream: false,
  };
}
