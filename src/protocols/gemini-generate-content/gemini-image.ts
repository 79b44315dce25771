import { GatewayError, invalidRequest } from '../../core/gateway-error.ts';
import type { GeneratedImage, ImageResult } from '../../core/image-result.ts';
import type { ImageGenerationRequest } from '../openai-images/index.ts';
import { MAX_IMAGES_PER_REQUEST } from '../openai-images/index.ts';
import { isRecord } from '../shared/is-record.ts';
import { acceptedRatio, nearestAspectRatio } from '../shared/aspect-ratio.ts';
import { normalizeGeminiKeys } from './normalize-gemini-keys.ts';

/** The aspect ratios Gemini's image models take in `generationConfig.imageConfig`. */
export const GEMINI_IMAGE_ASPECT_RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'] as const;

/**
 * True when a Gemini `generateContent` body asks for image output (`responseModalities` holding IMAGE).
 * Reads only the two fields it needs, in either key spelling: this runs before the body is
 * validated, so it must not walk a hostile body (a 10,000-deep array overflowed a full key walk).
 */
export function asksForImages(body: unknown): boolean {
  if (!isRecord(body)) return false;
  const config = body.generationConfig ?? body.generation_config;
  if (!isRecord(config)) return false;
  const modalities = config.responseModalities ?? config.response_modalities;
  return Array.isArray(modalities) && modalities.some((modality) => typeof modality === 'string' && modality.toUpperCase() === 'IMAGE');
}

/**
 * An image request in Gemini's shape: the prompt as one user turn, image output only, the nearest
 * aspect ratio to the requested size. Undefined for more than one image: Gemini's image models
 * answer one image per call and take no `candidateCount` above 1.
 */
export function encodeGeminiImageRequest(request: ImageGenerationRequest): Record<string, unknown> | undefined {
  if (request.n !== 1) return undefined;
  const aspectRatio = acceptedRatio(request.aspectRatio, GEMINI_IMAGE_ASPECT_RATIOS) ?? nearestAspectRatio(request.size, GEMINI_IMAGE_ASPECT_RATIOS);
  return {
    contents: [{ role: 'user', parts: [{ text: request.prompt }] }],
    generationConfig: { responseModalities: ['IMAGE'], ...(aspectRatio === undefined ? {} : { imageConfig: { aspectRatio } }) },
  };
}

const tokens = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);

/** Token counts of one modality in a `…TokensDetails` list. */
function modalityTokens(details: unknown, modality: string): number | undefined {
  if (!Array.isArray(details)) return undefined;
  let total: number | undefined;
  for (const entry of details) {
    if (isRecord(entry) && entry.modality === modality) total = (total ?? 0) + (tokens(entry.tokenCount) ?? 0);
  }
  return total;
}

/**
 * Reads a Gemini image reply: each `inlineData` part of the first candidate is an image, its text
 * parts (not thoughts) the text beside them. Tokens by modality from `usageMetadata`: image output
 * tokens (how Gemini bills its image models), text output tokens, text and image prompt tokens.
 * A reply without modality details counts its candidates' tokens as image tokens when it holds images.
 */
export function decodeGeminiImageReply(raw: Record<string, unknown>, created: number): ImageResult {
  const reply = normalizeGeminiKeys(raw) as Record<string, unknown>;
  const candidates = reply.candidates;
  if (candidates !== undefined && !Array.isArray(candidates))
    throw new GatewayError('upstream_invalid_response', 'The upstream Gemini reply has no "candidates" array.');
  const first = candidates?.[0];
  const parts = isRecord(first) && isRecord(first.content) && Array.isArray(first.content.parts) ? first.content.parts : [];
  const images: GeneratedImage[] = [];
  let text = '';
  for (const part of parts) {
    if (!isRecord(part) || part.thought === true) continue;
    if (isRecord(part.inlineData) && typeof part.inlineData.data === 'string' && part.inlineData.data !== '') {
      images.push({ b64: part.inlineData.data, mimeType: typeof part.inlineData.mimeType === 'string' ? part.inlineData.mimeType : 'image/png' });
    } else if (typeof part.text === 'string') text += part.text;
  }
  const usage = isRecord(reply.usageMetadata) ? reply.usageMetadata : {};
  const imageOut = modalityTokens(usage.candidatesTokensDetails, 'IMAGE');
  const textOut = modalityTokens(usage.candidatesTokensDetails, 'TEXT');
  const candidatesTokens = tokens(usage.candidatesTokenCount);
  const imageIn = modalityTokens(usage.promptTokensDetails, 'IMAGE');
  const prompt = tokens(usage.promptTokenCount);
  return {
    created,
    images,
    text,
    facts: {
      count: images.length,
      size: undefined,
      quality: undefined,
      textInputTokens: modalityTokens(usage.promptTokensDetails, 'TEXT') ?? (prompt === undefined ? undefined : Math.max(0, prompt - (imageIn ?? 0))),
      imageInputTokens: imageIn,
      outputTokens: imageOut ?? (textOut === undefined && images.length > 0 ? candidatesTokens : undefined),
      ...(textOut === undefined ? {} : { textOutputTokens: textOut }),
    },
  };
}

/** A Gemini client's image request: the canonical request for other wires, and its own body. */
export interface GeminiImageRequest {
  request: ImageGenerationRequest;
  /** The body as the client sent it: sent as is to a channel that speaks Gemini's image wire. */
  native: Record<string, unknown>;
  /** Images given as input (an edit in conversation): only a Gemini-speaking channel can carry them. */
  hasImageInput: boolean;
}

/**
 * Reads a Gemini `generateContent` request for image output: the prompt is the text of the last
 * user turn; `candidateCount` is the number of images; the aspect ratio is kept for the wire that
 * answers (OpenAI's becomes the size it stands for); inline images in the turns mark it as an edit.
 */
export function decodeGeminiImageRequest(body: unknown, model: string): GeminiImageRequest {
  if (!isRecord(body)) throw invalidRequest('The request body must be a JSON object.');
  const normalized = normalizeGeminiKeys(body) as Record<string, unknown>;
  const contents = normalized.contents;
  if (!Array.isArray(contents) || contents.length === 0) throw invalidRequest('* GenerateContentRequest.contents: contents is not specified', 'contents');
  const userTurns = contents.filter((content) => isRecord(content) && content.role !== 'model');
  const last = userTurns.at(-1);
  const parts = isRecord(last) && Array.isArray(last.parts) ? last.parts : [];
  const prompt = parts
    .map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : ''))
    .filter((text) => text !== '')
    .join('\n');
  if (prompt === '') throw invalidRequest('An image request needs text in its last user turn: the prompt describing the image.', 'contents');
  const hasImageInput = contents.some(
    (content) =>
      isRecord(content) &&
      Array.isArray(content.parts) &&
      content.parts.some((part) => isRecord(part) && (isRecord(part.inlineData) || isRecord(part.fileData))),
  );
  const config = isRecord(normalized.generationConfig) ? normalized.generationConfig : {};
  const count = config.candidateCount ?? 1;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_IMAGES_PER_REQUEST) {
    throw invalidRequest(`generationConfig.candidateCount must be a whole number from 1 to ${MAX_IMAGES_PER_REQUEST}.`, 'generationConfig.candidateCount');
  }
  const imageConfig = isRecord(config.imageConfig) ? config.imageConfig : {};
  const ratio = typeof imageConfig.aspectRatio === 'string' ? imageConfig.aspectRatio : undefined;
  return {
    request: {
      model,
      prompt,
      n: count,
      size: 'auto',
      quality: 'auto',
      stream: false,
      body: { model, prompt, n: count },
      ...(ratio === undefined ? {} : { aspectRatio: ratio }),
    },
    native: body,
    hasImageInput,
  };
}

/** An image reply in Gemini's `generateContent` shape: the images as `inlineData` parts of one candidate. */
export function encodeGeminiImageResponse(result: ImageResult, model: string): Record<string, unknown> {
  const parts: Record<string, unknown>[] = [];
  if (result.text !== '') parts.push({ text: result.text });
  for (const image of result.images) parts.push({ inlineData: { mimeType: image.mimeType, data: image.b64 } });
  const prompt = (result.facts.textInputTokens ?? 0) + (result.facts.imageInputTokens ?? 0);
  const imageOut = result.facts.outputTokens ?? 0;
  const textOut = result.facts.textOutputTokens ?? 0;
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: prompt,
      candidatesTokenCount: imageOut + textOut,
      totalTokenCount: prompt + imageOut + textOut,
      ...(imageOut > 0
        ? { candidatesTokensDetails: [{ modality: 'IMAGE', tokenCount: imageOut }, ...(textOut > 0 ? [{ modality: 'TEXT', tokenCount: textOut }] : [])] }
        : {}),
    },
    modelVersion: model,
  };
}
