import { GatewayError, invalidRequest } from '../../core/gateway-error.ts';
import { isRecord } from '../shared/is-record.ts';
import { openAiSizeForAspectRatio } from '../shared/aspect-ratio.ts';
import { type MultipartUpload, uploadField, uploadFiles } from '../../core/multipart-upload.ts';
import type { GeneratedImage, ImageReplyFacts, ImageResult } from '../../core/image-result.ts';

export type { ImageReplyFacts } from '../../core/image-result.ts';

/** OpenAI's own bound on images per request. */
export const MAX_IMAGES_PER_REQUEST = 10;

/** `POST /v1/images/generations` as the gateway reads it: what it routes, holds and bills by. */
export interface ImageGenerationRequest {
  model: string;
  prompt: string;
  /** Images asked for (OpenAI's default 1). */
  n: number;
  /** As sent, or `auto` when the request leaves it to the upstream. */
  size: string;
  quality: string;
  /** Streamed partial images asked for (`stream: true`): the reply is SSE, billed by its completed events. */
  stream: boolean;
  /** The body to send on, as the client wrote it (each channel sets its own `model`). */
  body: Record<string, unknown>;
  /**
   * The aspect ratio a client asked in (a Gemini client's `imageConfig.aspectRatio`), for the wires
   * that take one; `size` then stays `auto`, the tier being the answering upstream's to say.
   */
  aspectRatio?: string;
}

/** The fields OpenAI's image generation takes; anything else is refused as OpenAI refuses it. */
const KNOWN_FIELDS = new Set([
  'model',
  'prompt',
  'n',
  'size',
  'quality',
  'response_format',
  'style',
  'user',
  'background',
  'moderation',
  'output_compression',
  'output_format',
]);

const MAX_PROMPT_CHARS = 32_000;

/**
 * Reads and checks an image generation request. A missing model is refused rather than defaulted
 * as OpenAI does (to dall-e-2): the gateway routes and bills by the model, and a caller should know
 * which one it pays for. Streamed partial images (`stream: true`, `partial_images` 0–3) are relayed
 * as the upstream streams them.
 */
export function decodeImageGenerationRequest(body: unknown): ImageGenerationRequest {
  if (!isRecord(body)) throw invalidRequest('The request body must be a JSON object.');
  const model = body.model;
  if (typeof model !== 'string' || model === '')
    throw invalidRequest('The request body needs a "model" field naming an image model your key can use.', 'model');
  const prompt = body.prompt;
  if (typeof prompt !== 'string' || prompt === '') throw invalidRequest('"prompt" is required: a non-empty string describing the image.', 'prompt');
  if (prompt.length > MAX_PROMPT_CHARS) throw invalidRequest(`"prompt" may be at most ${MAX_PROMPT_CHARS} characters; it has ${prompt.length}.`, 'prompt');
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean') throw invalidRequest('"stream" must be true or false.', 'stream');
  const partial = body.partial_images;
  if (partial !== undefined && partial !== null && !(typeof partial === 'number' && Number.isInteger(partial) && partial >= 0 && partial <= 3)) {
    throw invalidRequest('"partial_images" must be a whole number from 0 to 3.', 'partial_images');
  }
  for (const field of Object.keys(body)) {
    if (!KNOWN_FIELDS.has(field) && field !== 'stream' && field !== 'partial_images')
      throw invalidRequest(`Unrecognized request argument supplied: ${field}`, field);
  }
  const n = body.n ?? 1;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_IMAGES_PER_REQUEST) {
    throw invalidRequest(`"n" must be a whole number from 1 to ${MAX_IMAGES_PER_REQUEST}.`, 'n');
  }
  const size = readTier(body, 'size');
  const quality = readTier(body, 'quality');
  return { model, prompt, n, size, quality, stream: body.stream === true, body };
}

function readTier(body: Record<string, unknown>, field: 'size' | 'quality'): string {
  const value = body[field];
  if (value === undefined || value === null) return 'auto';
  if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{1,32}$/.test(value))
    throw invalidRequest(`"${field}" must be a string such as ${field === 'size' ? '"1024x1024"' : '"high"'}.`, field);
  return value;
}

/** Reads an upstream's image reply (`data[]`, gpt-image's `size`, `quality` and `usage`). */
export function readImageReply(reply: Record<string, unknown>): ImageReplyFacts {
  const data = reply.data;
  if (!Array.isArray(data)) throw new GatewayError('upstream_invalid_response', 'The upstream image reply has no "data" array.');
  const usage = isRecord(reply.usage) ? reply.usage : undefined;
  const details = usage !== undefined && isRecord(usage.input_tokens_details) ? usage.input_tokens_details : undefined;
  const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);
  const inputTokens = count(usage?.input_tokens);
  const imageInputTokens = count(details?.image_tokens);
  return {
    count: data.length,
    size: typeof reply.size === 'string' ? reply.size : undefined,
    quality: typeof reply.quality === 'string' ? reply.quality : undefined,
    textInputTokens: count(details?.text_tokens) ?? (inputTokens === undefined ? undefined : Math.max(0, inputTokens - (imageInputTokens ?? 0))),
    imageInputTokens,
    outputTokens: count(usage?.output_tokens),
  };
}

/** The text fields OpenAI's image edit takes beside its `image` files and `mask`. */
const EDIT_FIELDS = new Set([
  'model',
  'prompt',
  'n',
  'size',
  'quality',
  'response_format',
  'user',
  'background',
  'input_fidelity',
  'output_compression',
  'output_format',
  'stream',
  'partial_images',
]);
/** gpt-image takes up to 16 images to edit; DALL·E 2 one. */
export const MAX_EDIT_IMAGES = 16;

/**
 * Reads and checks an image edit (`multipart/form-data`): at least one `image` (or `image[]`)
 * file, at most one `mask`, a prompt, the same `n`/`size`/`quality` rules as a generation; form
 * values arrive as text, so `n` is read from its digits. The files themselves are not read here
 * (they are sent on as uploaded; the upstream judges their format).
 */
export function decodeImageEditRequest(upload: MultipartUpload): ImageGenerationRequest {
  for (const [name] of upload.fields) if (!EDIT_FIELDS.has(name)) throw invalidRequest(`Unrecognized request argument supplied: ${name}`, name);
  for (const file of upload.files) {
    if (file.field !== 'image' && file.field !== 'image[]' && file.field !== 'mask')
      throw invalidRequest(`Unexpected file field "${file.field}": an edit takes "image" (or "image[]") and "mask".`, file.field);
  }
  const images = uploadFiles(upload, 'image');
  if (images.length === 0) throw invalidRequest("Missing required parameter: 'image' (the picture to edit, as a file).", 'image');
  if (images.length > MAX_EDIT_IMAGES) throw invalidRequest(`At most ${MAX_EDIT_IMAGES} images may be edited in one request.`, 'image');
  if (uploadFiles(upload, 'mask').length > 1) throw invalidRequest('At most one "mask" may be sent.', 'mask');
  const nText = uploadField(upload, 'n');
  const body: Record<string, unknown> = {};
  for (const name of ['model', 'prompt', 'size', 'quality', 'stream', 'partial_images'] as const) {
    const value = uploadField(upload, name);
    if (value !== undefined) body[name] = name === 'stream' ? value === 'true' : name === 'partial_images' && /^\d$/.test(value) ? Number(value) : value;
  }
  if (nText !== undefined) body.n = /^\d{1,3}$/.test(nText) ? Number(nText) : nText;
  return decodeImageGenerationRequest(body);
}

/**
 * The facts of a streamed image reply, from its events: each `image_generation.completed` (or
 * `image_edit.completed`) event is one image delivered, carrying its size, quality and usage as a
 * whole reply would; partial images are previews and are not billed.
 */
export function readStreamedImageEvents(events: readonly Record<string, unknown>[]): ImageReplyFacts {
  const completed = events.filter((event) => typeof event.type === 'string' && event.type.endsWith('.completed'));
  const last = completed.at(-1);
  const sum = (pick: (facts: ImageReplyFacts) => number | undefined): number | undefined => {
    const values = completed.map((event) => pick(readImageReply({ ...event, data: [] })));
    return values.every((value) => value === undefined) ? undefined : values.reduce<number>((total, value) => total + (value ?? 0), 0);
  };
  return {
    count: completed.length,
    size: typeof last?.size === 'string' ? last.size : undefined,
    quality: typeof last?.quality === 'string' ? last.quality : undefined,
    textInputTokens: sum((facts) => facts.textInputTokens),
    imageInputTokens: sum((facts) => facts.imageInputTokens),
    outputTokens: sum((facts) => facts.outputTokens),
  };
}

/**
 * Reads an OpenAI image reply into wire-neutral terms, for a client that speaks another wire: the
 * images must come as `b64_json` (the gateway asks for it when it translates: a URL would make
 * the gateway fetch images on the client's behalf).
 */
export function decodeOpenAiImageReply(reply: Record<string, unknown>): ImageResult {
  const facts = readImageReply(reply);
  const images: GeneratedImage[] = [];
  for (const entry of reply.data as unknown[]) {
    if (!isRecord(entry) || typeof entry.b64_json !== 'string')
      throw new GatewayError('upstream_invalid_response', 'The upstream image reply carries no image bytes (b64_json).');
    const format = typeof reply.output_format === 'string' ? reply.output_format : 'png';
    const image: GeneratedImage = { b64: entry.b64_json, mimeType: `image/${format === 'jpg' ? 'jpeg' : format}` };
    if (typeof entry.revised_prompt === 'string') image.revisedPrompt = entry.revised_prompt;
    images.push(image);
  }
  return { created: typeof reply.created === 'number' ? reply.created : 0, images, text: '', facts };
}

/**
 * An image reply in OpenAI's shape from another wire's images. `url` is answered with a `data:`
 * URL (Gemini and Imagen return bytes, not hosted files; `fetch` reads a data URL like any other),
 * `b64_json` with the bytes; token counts, when the upstream gave them, as gpt-image's `usage`.
 */
export function encodeOpenAiImageReply(result: ImageResult, format: 'url' | 'b64_json'): Record<string, unknown> {
  const data = result.images.map((image) => ({
    ...(format === 'url' ? { url: `data:${image.mimeType};base64,${image.b64}` } : { b64_json: image.b64 }),
    ...(image.revisedPrompt === undefined ? {} : { revised_prompt: image.revisedPrompt }),
  }));
  const { textInputTokens, imageInputTokens, outputTokens, textOutputTokens } = result.facts;
  if (outputTokens === undefined && textInputTokens === undefined) return { created: result.created, data };
  const input = (textInputTokens ?? 0) + (imageInputTokens ?? 0);
  const output = (outputTokens ?? 0) + (textOutputTokens ?? 0);
  return {
    created: result.created,
    data,
    usage: {
      input_tokens: input,
      output_tokens: output,
      total_tokens: input + output,
      input_tokens_details: { text_tokens: textInputTokens ?? 0, image_tokens: imageInputTokens ?? 0 },
    },
  };
}

/**
 * The body of OpenAI's images endpoint for a request that came in another wire (a Gemini client's),
 * for the upstream model: gpt-image takes the size as is and always answers bytes; DALL·E 3 gets
 * its own landscape and portrait sizes and is asked for `b64_json`; DALL·E 2 (square only) and
 * unknown models leave a non-square size to their default.
 */
export function encodeOpenAiImageBody(request: ImageGenerationRequest, upstreamModel: string): Record<string, unknown> {
  const body: Record<string, unknown> = { model: upstreamModel, prompt: request.prompt, n: request.n };
  const gptImage = /^gpt-image/i.test(upstreamModel);
  const size = request.size !== 'auto' ? request.size : openAiSizeForAspectRatio(request.aspectRatio);
  if (size !== 'auto') {
    if (gptImage) body.size = size;
    else if (/^dall-e-3/i.test(upstreamModel)) body.size = size === '1536x1024' ? '1792x1024' : size === '1024x1536' ? '1024x1792' : size;
    else if (size === '1024x1024') body.size = size;
  }
  if (!gptImage) body.response_format = 'b64_json';
  return body;
}

/** The size and quality an OpenAI image model serves a body at: as sent, else the model's default (gpt-image reports its own). */
export function openAiServedTier(body: Record<string, unknown>, upstreamModel: string): { size: string; quality: string } {
  const gptImage = /^gpt-image/i.test(upstreamModel);
  return {
    size: typeof body.size === 'string' ? body.size : gptImage ? 'auto' : '1024x1024',
    quality: typeof body.quality === 'string' ? body.quality : gptImage ? 'auto' : 'standard',
  };
}
