import { estimateTextTokens } from '../billing/estimate-tokens.ts';
import { decodeModerationRequest } from '../protocols/openai-moderations/index.ts';
import { decodeRerankRequest, readRerankUsage } from '../protocols/rerank/index.ts';
import { GatewayError } from '../core/gateway-error.ts';
import type { GenerationDeps } from './run-generation.ts';
import { runMedia, type MediaAnswer, type MediaCall } from './run-media.ts';

/** Tokens an image input to omni-moderation is counted as (OpenAI does not report moderation usage). */
export const MODERATION_IMAGE_TOKENS = 1_000;

/** `POST /v1/moderations`: priced as text input tokens (the inputs' estimate; OpenAI reports no usage here). */
export function runModeration(deps: GenerationDeps, call: MediaCall, body: unknown): Promise<MediaAnswer> {
  return runMedia(deps, call, 'openai-moderations', () => {
    const request = decodeModerationRequest(body);
    const inputTokens = estimateTextTokens(request.text) + request.images * MODERATION_IMAGE_TOKENS;
    return {
      operation: 'moderations',
      model: request.model,
      body: request.body,
      promptText: request.text,
      billed: (reply) => {
        if (!Array.isArray(reply.json?.results)) throw new GatewayError('upstream_invalid_response', 'The upstream moderation reply has no "results" array.');
        return { inputTokens, outputTokens: 0 };
      },
    };
  });
}

/**
 * `POST /v1/rerank` (Cohere/Jina shape): per search unit — the units Cohere billed, or one per
 * query over up to 100 documents — bounded by the documents sent, plus the tokens Jina counted (or
 * the estimate) as text input.
 */
export function runRerank(deps: GenerationDeps, call: MediaCall, body: unknown): Promise<MediaAnswer> {
  return runMedia(deps, call, 'rerank', () => {
    const request = decodeRerankRequest(body);
    const estimate = estimateTextTokens(request.text);
    return {
      operation: 'rerank',
      model: request.model,
      body: request.body,
      promptText: request.text,
      held: () => ({ media: { searchUnits: request.searchUnits } }),
      billed: (reply, _price, warnings) => {
        if (reply.json === undefined) throw new GatewayError('upstream_invalid_response', 'The upstream rerank reply is not JSON.');
        const counted = readRerankUsage(reply.json);
        let searchUnits = counted.searchUnits ?? request.searchUnits;
        // Cohere splits long documents into chunks, each its own unit: at most 10 per document here.
        const bound = request.documents * 10;
        if (searchUnits > bound) {
          warnings.push('clamped:usage.search_units');
          searchUnits = bound;
        }
        return { inputTokens: counted.tokens ?? estimate, outputTokens: 0, media: { searchUnits } };
      },
    };
  });
}
