import { GatewayError } from '../core/gateway-error.ts';
import type { MediaWire } from '../core/image-result.ts';
import { decodeGeminiImageRequest, encodeGeminiImageResponse } from '../protocols/gemini-generate-content/index.ts';
import { encodeImagenRequest } from '../protocols/imagen-predict/index.ts';
import { encodeOpenAiImageBody, openAiServedTier, readImageReply } from '../protocols/openai-images/index.ts';
import type { GenerationDeps } from './run-generation.ts';
import { billedUsage, decodeImageResult, heldImages } from './run-images.ts';
import { runMedia, type MediaAnswer, type MediaCall } from './run-media.ts';

/**
 * A Gemini client's `generateContent` asking for image output, through the media pipeline so any
 * channel serving the model answers it: a Gemini-speaking channel (Gemini API, Vertex) gets the
 * client's body as sent and its reply is passed back as is; an OpenAI-compatible or Azure image
 * channel gets OpenAI's images request and Vertex Imagen its `:predict`, their images returned as
 * Gemini `inlineData` parts. Held and billed like any image request: per image by tier, or by
 * image tokens where the upstream counts them (Gemini's image models).
 */
export function runGeminiImages(deps: GenerationDeps, call: MediaCall, body: unknown, model: string): Promise<MediaAnswer> {
  return runMedia(deps, call, 'gemini-generate-content', () => {
    const { request, native, hasImageInput } = decodeGeminiImageRequest(body, model);
    const created = () => Math.floor(deps.runtime.now() / 1000);
    const bodyFor = (wire: MediaWire, upstreamModel: string): Record<string, unknown> | undefined => {
      if (wire === 'gemini-image') return native;
      if (hasImageInput) return undefined;
      return wire === 'openai' ? encodeOpenAiImageBody(request, upstreamModel) : encodeImagenRequest(request);
    };
    return {
      operation: 'images/generations',
      model,
      body: request.body,
      promptText: request.prompt,
      bodyFor,
      uncarriedReason: hasImageInput ? 'images given as input go only to channels that speak Gemini' : 'Imagen makes at most four images per request',
      held: (price) => {
        const images = heldImages(request, price);
        return images === undefined ? undefined : { images };
      },
      billed: (reply, price, warnings) => {
        if (reply.json === undefined) throw new GatewayError('upstream_invalid_response', 'The upstream image reply is not JSON.');
        if (reply.wire !== 'openai') return billedUsage(request, price, decodeImageResult(reply.json, reply.wire, 0).facts, warnings);
        // The tier the OpenAI model was asked for (a DALL·E reply does not name it).
        const tier = openAiServedTier(encodeOpenAiImageBody(request, reply.upstreamModel ?? model), reply.upstreamModel ?? model);
        return billedUsage({ ...request, ...tier }, price, readImageReply(reply.json), warnings);
      },
      present: (json, wire) => (wire === 'gemini-image' ? json : encodeGeminiImageResponse(decodeImageResult(json, wire, created()), model)),
    };
  });
}
