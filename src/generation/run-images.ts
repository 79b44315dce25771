import { computeCostMicros } from '../billing/compute-cost.ts';
import { perImageMicros, pricedImageTiers } from '../billing/image-price.ts';
import { estimateTextTokens } from '../billing/estimate-tokens.ts';
import { GatewayError, invalidRequest } from '../core/gateway-error.ts';
import type { MultipartUpload } from '../core/multipart-upload.ts';
import type { ImageUsage, Usage } from '../core/usage.ts';
import type { ModelPrice } from '../domain/model-price.ts';
import {
  decodeImageEditRequest,
  decodeOpenAiImageReply,
  encodeOpenAiImageReply,
  decodeImageGenerationRequest,
  readImageReply,
  readStreamedImageEvents,
  type ImageGenerationRequest,
} from '../protocols/openai-images/index.ts';
import type { GenerationDeps } from './run-generation.ts';
import type { ImageReplyFacts, ImageResult, MediaWire } from '../core/image-result.ts';
import { decodeGeminiImageReply, encodeGeminiImageRequest } from '../protocols/gemini-generate-content/index.ts';
import { decodeImagenReply, encodeImagenRequest } from '../protocols/imagen-predict/index.ts';
import { runMedia, type MediaAnswer, type MediaCall, type MediaPlan } from './run-media.ts';

/**
 * Image tokens one image can take at most (gpt-image's largest high-quality image is ~6,240): the
 * hold for a model billed by image tokens, and the bound on what an upstream may report per image.
 */
export const MAX_IMAGE_OUTPUT_TOKENS = 10_000;

/**
 * `POST /v1/images/generations` and `/v1/images/edits` through `runMedia`: the hold is the dearest
 * the images can cost; the bill is the images the answering channel returned — per image at their
 * size × quality, or by image tokens (an edit's input images too) — plus the prompt as text input.
 */
export function runImages(deps: GenerationDeps, call: MediaCall, body: unknown): Promise<MediaAnswer> {
  return runMedia(deps, call, 'openai-images', () => {
    const request = decodeImageGenerationRequest(body);
    const plan = imagePlan('images/generations', request);
    if (request.stream) return { ...plan, uncarriedReason: 'streamed partial images come only from OpenAI-compatible and Azure channels' };
    // Translated for Gemini image models and Imagen; the reply comes back in OpenAI's shape.
    const format = request.body.response_format === 'url' ? 'url' : 'b64_json';
    const created = () => Math.floor(deps.runtime.now() / 1000);
    return {
      ...plan,
      bodyFor: (wire, upstreamModel) =>
        wire === 'openai'
          ? { ...request.body, model: upstreamModel }
          : wire === 'gemini-image'
            ? encodeGeminiImageRequest(request)
            : encodeImagenRequest(request),
      uncarriedReason: 'Gemini image models make one image per request, Imagen up to four',
      present: (json, wire) => (wire === 'openai' ? json : encodeOpenAiImageReply(decodeImageResult(json, wire, created()), format)),
    };
  });
}

/** An image reply in any wire, in wire-neutral terms. */
export function decodeImageResult(json: Record<string, unknown>, wire: MediaWire, created: number): ImageResult {
  if (wire === 'gemini-image') return decodeGeminiImageReply(json, created);
  if (wire === 'vertex-imagen') return decodeImagenReply(json, created);
  return decodeOpenAiImageReply(json);
}

/** An image edit: the multipart form's fields checked like a generation's, the images and mask sent on as uploaded. */
export function runImageEdits(deps: GenerationDeps, call: MediaCall, upload: MultipartUpload): Promise<MediaAnswer> {
  return runMedia(deps, call, 'openai-images', () => ({ ...imagePlan('images/edits', decodeImageEditRequest(upload)), upload }));
}

export function imagePlan(operation: 'images/generations' | 'images/edits', request: ImageGenerationRequest): MediaPlan {
  return {
    operation,
    model: request.model,
    body: request.body,
    promptText: request.prompt,
    held: (price) => {
      const images = heldImages(request, price);
      return images === undefined ? undefined : { images };
    },
    billed: (reply, price, warnings) => {
      if (reply.json === undefined) throw new GatewayError('upstream_invalid_response', 'The upstream image reply is not JSON.');
      const facts = reply.wire === 'openai' ? readImageReply(reply.json) : decodeImageResult(reply.json, reply.wire, 0).facts;
      return billedUsage(request, price, facts, warnings);
    },
    ...(request.stream ? { reply: 'stream' as const, streamed: streamedBill(request) } : {}),
  };
}

/** Partial images streamed as the upstream sends them; the completed images billed when the stream ends. */
function streamedBill(request: ImageGenerationRequest): NonNullable<MediaPlan['streamed']> {
  const events: Record<string, unknown>[] = [];
  return {
    onEvent: (message) => {
      if (!message.data.includes('.completed')) return;
      try {
        const event: unknown = JSON.parse(message.data);
        if (event !== null && typeof event === 'object' && !Array.isArray(event)) events.push(event as Record<string, unknown>);
      } catch {
        // Not JSON: the client sees it as sent; nothing in it is billed.
      }
    },
    billed: (price, warnings) => billedUsage(request, price, readStreamedImageEvents(events), warnings),
  };
}

/**
 * The hold: `n` images at the requested tier — or, for a tier left `auto`, the dearest the model's
 * table has — or by image tokens at the per-image bound, whichever costs more. A model priced per
 * image whose table lacks the requested tier is refused before any upstream call: the gateway does
 * not guess what an unpriced tier costs.
 */
export function heldImages(request: ImageGenerationRequest, price: ModelPrice): ImageUsage | undefined {
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
    const cost = computeCostMicros({ inputTokens: 0, outputTokens: 0, images: candidate }, price);
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
export function billedUsage(request: ImageGenerationRequest, price: ModelPrice | undefined, facts: ImageReplyFacts, warnings: string[]): Usage {
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
  return { inputTokens: facts.textInputTokens ?? estimateTextTokens(request.prompt), outputTokens: facts.textOutputTokens ?? 0, images };
}
