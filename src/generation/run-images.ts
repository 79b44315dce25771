import type { CallerCredentials } from '../access/authenticate-caller.ts';
import { authenticateCaller } from '../access/authenticate-caller.ts';
import type { Caller } from '../access/authenticate-key.ts';
import { authorizeModel } from '../access/authorize-model.ts';
import { admitGeneration, planAdmission } from '../billing/admit-generation.ts';
import { estimateRequest } from '../billing/estimate-reservation.ts';
import { computeCostMicros } from '../billing/compute-cost.ts';
import { perImageMicros, pricedImageTiers } from '../billing/image-price.ts';
import { resolvePrice } from '../billing/resolve-price.ts';
import type { ChatRequest } from '../core/chat-request.ts';
import { estimateTextTokens } from '../core/estimate-tokens.ts';
import { GatewayError, invalidRequest } from '../core/gateway-error.ts';
import type { ImageUsage, Usage } from '../core/usage.ts';
import type { ModelPrice } from '../domain/model-price.ts';
import { decodeImageGenerationRequest, readImageReply, type ImageGenerationRequest } from '../protocols/openai-images/index.ts';
import { relayMedia } from '../relay/relay-media.ts';
import { orderAttempts } from '../routing/order-attempts.ts';
import type { GenerationDeps } from './run-generation.ts';
import { WholeReplyLedger } from './whole-reply-ledger.ts';

/**
 * Image tokens one image can take at most (gpt-image's largest high-quality image is ~6,240): the
 * hold for a model billed by image tokens, and the bound on what an upstream may report per image.
 */
export const MAX_IMAGE_OUTPUT_TOKENS = 10_000;

export interface ImagesCall {
  requestId: string;
  /** The path prefix surface (`antigravity`) or null for the root surfaces. */
  prefix: string | null;
  body: unknown;
  credentials: CallerCredentials;
  caller?: Caller;
  signal: AbortSignal;
}

export interface ImagesReply {
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/**
 * `POST /v1/images/generations` through the same stages as generation: authenticate, decode,
 * authorise the model for the key's group, admit (rate limits, spend caps, balance) holding the
 * dearest the images can cost, relay over the model's channels with failover and circuits, settle
 * the images the answering channel returned — per image at their size × quality, or by image
 * tokens — and record one usage row. Only the answering attempt is billed, so a failed-over request
 * costs one set of images. Refusals are thrown as GatewayErrors, rendered in OpenAI's shape.
 */
export async function runImages(deps: GenerationDeps, call: ImagesCall): Promise<ImagesReply> {
  const ledger = new WholeReplyLedger(deps, call, 'openai-images', null);
  try {
    const caller = call.caller ?? authenticateCaller(deps.snapshot.current, deps.runtime.now(), call.credentials, 'bearer');
    const request = decodeImageGenerationRequest(call.body);
    const model = request.model;
    ledger.caller = caller;
    ledger.model = model;
    const channels = authorizeModel(deps.snapshot.current, caller, model, call.prefix, { revealOtherGroups: deps.settings?.revealOtherGroupModels === true });
    const price = resolvePrice(deps.snapshot.current, model, deps.access.strictPricing, caller.group.name, deps.runtime.now());
    const held = price === undefined ? undefined : heldImages(request, price, caller.group.priceMultiplier);
    const admission = await admitGeneration(deps, planAdmission(deps, caller, model), () => estimateRequest(promptAsChat(request)), held);
    ledger.admission = admission;

    const relayed = await relayMedia(deps.relay, {
      operation: 'images/generations',
      body: request.body,
      publicModel: model,
      channels: orderAttempts(channels, deps.runtime.random),
      signal: call.signal,
    });
    const warnings = [...admission.warnings];
    let usage: Usage | undefined;
    let failure = relayed.error;
    if (relayed.result !== undefined) {
      try {
        usage = billedUsage(request, price, readImageReply(relayed.result), warnings);
      } catch (error) {
        failure = error instanceof GatewayError ? error : new GatewayError('upstream_invalid_response', 'The upstream image reply could not be read.');
      }
    }
    const costMicros = await admission.finish(usage);
    ledger.record({ kind: 'relayed', result: { ...relayed, upstreamProtocol: 'openai-images', warnings: [] }, firstByteAt: undefined, usage, costMicros }, warnings);
    if (failure !== undefined || relayed.result === undefined) throw failure ?? new GatewayError('internal_error', 'The image relay ended without a result.');
    const headers: Record<string, string> = { 'x-request-id': call.requestId };
    if (warnings.length > 0) headers['x-switchyard-warnings'] = [...new Set(warnings)].join(', ');
    return { headers, body: relayed.result };
  } catch (thrown) {
    throw await ledger.refuse(thrown, 'images');
  }
}

/**
 * The hold: `n` images at the requested tier — or, for a tier left `auto`, the dearest the model's
 * table has — or by image tokens at the per-image bound, whichever costs more. A model priced per
 * image whose table lacks the requested tier is refused before any upstream call: the gateway does
 * not guess what an unpriced tier costs.
 */
function heldImages(request: ImageGenerationRequest, price: ModelPrice, multiplier: number): ImageUsage | undefined {
  const candidates: ImageUsage[] = [];
  if (price.images?.perImage !== undefined) {
    const tier = heldTier(request, price);
    if (tier === undefined) {
      throw invalidRequest(
        `Model "${request.model}" has no image price for size "${request.size}" and quality "${request.quality}"; priced: ${pricedImageTiers(price).join(', ')}.`,
        'size',
      );
    }
    candidates.push({ count: request.n, ...tier });
  }
  if (price.images?.outputPerMillion !== undefined) {
    candidates.push({ count: request.n, size: request.size, quality: request.quality, inputTokens: 0, outputTokens: request.n * MAX_IMAGE_OUTPUT_TOKENS });
  }
  let dearest: ImageUsage | undefined;
  let dearestCost = -1;
  for (const candidate of candidates) {
    const cost = computeCostMicros({ inputTokens: 0, outputTokens: 0, images: candidate }, price, multiplier);
    if (cost > dearestCost) [dearest, dearestCost] = [candidate, cost];
  }
  return dearest;
}

/** The requested tier when priced; for `auto` in either place, the dearest priced tier that fits. */
function heldTier(request: ImageGenerationRequest, price: ModelPrice): { size: string; quality: string } | undefined {
  if (perImageMicros(price, request.size, request.quality) !== undefined) return { size: request.size, quality: request.quality };
  let best: { size: string; quality: string; micros: number } | undefined;
  for (const tier of pricedImageTiers(price)) {
    const [size, quality] = tier.split('/') as [string, string];
    if ((request.size !== 'auto' && size !== request.size) || (request.quality !== 'auto' && quality !== request.quality)) continue;
    const micros = perImageMicros(price, size, quality) ?? 0;
    if (best === undefined || micros > best.micros) best = { size, quality, micros };
  }
  return best;
}

/**
 * The usage billed for the reply: images returned (at most `n`), at the tier the upstream reports
 * when priced, else the held tier; image tokens bounded per image; the prompt as text input tokens.
 */
function billedUsage(request: ImageGenerationRequest, price: ModelPrice | undefined, facts: ReturnType<typeof readImageReply>, warnings: string[]): Usage {
  const count = Math.min(facts.count, request.n);
  if (facts.count > request.n) warnings.push('clamped:usage.images');
  let tier = { size: facts.size ?? request.size, quality: facts.quality ?? request.quality };
  if (price !== undefined && perImageMicros(price, tier.size, tier.quality) === undefined) {
    tier = heldTier(request, price) ?? { size: request.size, quality: request.quality };
  }
  const images: ImageUsage = { count, ...tier };
  if (facts.outputTokens !== undefined) {
    const bound = count * MAX_IMAGE_OUTPUT_TOKENS;
    if (facts.outputTokens > bound) warnings.push('clamped:usage.image_output_tokens');
    images.outputTokens = Math.min(facts.outputTokens, bound);
    images.inputTokens = facts.imageInputTokens ?? 0;
  }
  return { inputTokens: facts.textInputTokens ?? estimateTextTokens(request.prompt), outputTokens: 0, images };
}

/** The prompt as one user turn with no text output allowance: the hold's text part and the rate limiter's input estimate. */
function promptAsChat(request: ImageGenerationRequest): ChatRequest {
  return { model: request.model, system: [], messages: [{ role: 'user', content: [{ type: 'text', text: request.prompt }] }], tools: [], maxOutputTokens: 0, stream: false };
}
