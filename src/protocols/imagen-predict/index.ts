import { GatewayError } from '../../core/gateway-error.ts';
import type { GeneratedImage, ImageResult } from '../../core/image-result.ts';
import type { ImageGenerationRequest } from '../openai-images/index.ts';
import { isRecord } from '../shared/is-record.ts';
import { acceptedRatio, nearestAspectRatio } from '../shared/aspect-ratio.ts';

/** Imagen's aspect ratios (Vertex AI's Imagen models). */
export const IMAGEN_ASPECT_RATIOS = ['1:1', '3:4', '4:3', '9:16', '16:9'] as const;
/** Imagen's `sampleCount` bound. */
export const MAX_IMAGEN_SAMPLES = 4;

/**
 * An image request in Vertex Imagen's `:predict` shape: one instance with the prompt, and
 * `parameters` with `sampleCount` (1–4), the nearest `aspectRatio` to the requested size and the
 * output type. Undefined when Imagen cannot carry the request (more than four images).
 */
export function encodeImagenRequest(request: ImageGenerationRequest): Record<string, unknown> | undefined {
  if (request.n > MAX_IMAGEN_SAMPLES) return undefined;
  const aspectRatio = acceptedRatio(request.aspectRatio, IMAGEN_ASPECT_RATIOS) ?? nearestAspectRatio(request.size, IMAGEN_ASPECT_RATIOS);
  const format = request.body.output_format;
  const mimeType = format === 'jpeg' ? 'image/jpeg' : format === 'png' ? 'image/png' : undefined;
  return {
    instances: [{ prompt: request.prompt }],
    parameters: {
      sampleCount: request.n,
      ...(aspectRatio === undefined ? {} : { aspectRatio }),
      ...(mimeType === undefined ? {} : { outputOptions: { mimeType } }),
    },
  };
}

/**
 * Reads an Imagen `:predict` reply: each prediction with `bytesBase64Encoded` is one image (a
 * prediction filtered by Responsible AI carries only its `raiFilteredReason` and is not one).
 * Imagen counts no tokens; it is billed per image.
 */
export function decodeImagenReply(reply: Record<string, unknown>, created: number): ImageResult {
  const predictions = reply.predictions;
  if (predictions !== undefined && !Array.isArray(predictions))
    throw new GatewayError('upstream_invalid_response', 'The upstream Imagen reply has no "predictions" array.');
  const images: GeneratedImage[] = [];
  for (const prediction of predictions ?? []) {
    if (!isRecord(prediction) || typeof prediction.bytesBase64Encoded !== 'string' || prediction.bytesBase64Encoded === '') continue;
    const image: GeneratedImage = { b64: prediction.bytesBase64Encoded, mimeType: typeof prediction.mimeType === 'string' ? prediction.mimeType : 'image/png' };
    if (typeof prediction.prompt === 'string') image.revisedPrompt = prediction.prompt;
    images.push(image);
  }
  return {
    created,
    images,
    text: '',
    facts: { count: images.length, size: undefined, quality: undefined, textInputTokens: undefined, imageInputTokens: undefined, outputTokens: undefined },
  };
}
