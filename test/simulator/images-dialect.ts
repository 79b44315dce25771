import { createHash } from 'node:crypto';
import type { JsonReply } from './json-reply.ts';

/**
 * OpenAI's `POST /v1/images/generations` (and Azure's per-deployment path), with the request rules
 * the real API enforces, refused in its shape: `prompt` is required, `n` is 1–10 (1 for dall-e-3),
 * `size` and `quality` must be ones the model has, unknown fields are refused. gpt-image models
 * answer `b64_json` with `size`, `quality` and token `usage`; DALL·E answers `url` or `b64_json`.
 * Each image is a deterministic PNG-signature blob per prompt, so tests can tell them apart.
 */
const GPT_IMAGE_SIZES = ['auto', '1024x1024', '1536x1024', '1024x1536'];
const GPT_IMAGE_QUALITIES = ['auto', 'low', 'medium', 'high'];
const DALLE3_SIZES = ['1024x1024', '1792x1024', '1024x1792'];
const DALLE3_QUALITIES = ['standard', 'hd'];
const DALLE2_SIZES = ['256x256', '512x512', '1024x1024'];
const KNOWN = new Set([
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
  'stream',
  'partial_images',
]);
/** gpt-image-1's image tokens per size × quality (OpenAI's price notes). */
const GPT_IMAGE_TOKENS: Record<string, Record<string, number>> = {
  '1024x1024': { low: 272, medium: 1056, high: 4160 },
  '1536x1024': { low: 408, medium: 1584, high: 6240 },
  '1024x1536': { low: 400, medium: 1568, high: 6208 },
};

const invalid = (message: string, param: string | null, code: string | null = null): JsonReply => ({
  status: 400,
  body: { error: { message, type: 'invalid_request_error', param, code } },
  headers: {},
});

export function answerImageGeneration(model: string, body: unknown): JsonReply {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return invalid('We could not parse the JSON body of your request.', null);
  const request = body as Record<string, unknown>;
  for (const field of Object.keys(request)) if (!KNOWN.has(field)) return invalid(`Unrecognized request argument supplied: ${field}`, field);
  if (typeof request.prompt !== 'string' || request.prompt === '')
    return invalid("Missing required parameter: 'prompt'.", 'prompt', 'missing_required_parameter');
  const gptImage = model.startsWith('gpt-image');
  const dalle3 = model === 'dall-e-3';
  const n = request.n ?? 1;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > (dalle3 ? 1 : 10))
    return invalid(`Invalid 'n': must be between 1 and ${dalle3 ? 1 : 10}.`, 'n');
  const size = typeof request.size === 'string' ? request.size : gptImage ? 'auto' : '1024x1024';
  const sizes = gptImage ? GPT_IMAGE_SIZES : dalle3 ? DALLE3_SIZES : DALLE2_SIZES;
  if (!sizes.includes(size))
    return invalid(`Invalid value: '${size}'. Supported values are: ${sizes.map((s) => `'${s}'`).join(', ')}.`, 'size', 'invalid_value');
  const quality = typeof request.quality === 'string' ? request.quality : gptImage ? 'auto' : 'standard';
  const qualities = gptImage ? GPT_IMAGE_QUALITIES : dalle3 ? DALLE3_QUALITIES : ['standard'];
  if (!qualities.includes(quality))
    return invalid(`Invalid value: '${quality}'. Supported values are: ${qualities.map((q) => `'${q}'`).join(', ')}.`, 'quality', 'invalid_value');
  if (gptImage && request.response_format !== undefined) return invalid("Unknown parameter: 'response_format'.", 'response_format', 'unknown_parameter');
  const format = request.response_format ?? (gptImage ? 'b64_json' : 'url');
  if (format !== 'url' && format !== 'b64_json')
    return invalid(`Invalid value: '${String(format)}'. Supported values are: 'url' and 'b64_json'.`, 'response_format', 'invalid_value');
  const data = Array.from({ length: n }, (_, index) => {
    const bytes = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      createHash('sha256')
        .update(`${model}\u0000${request.prompt as string}\u0000${index}`)
        .digest(),
    ]);
    return format === 'url' ? { url: `https://images.simulator.invalid/${bytes.toString('hex')}.png` } : { b64_json: bytes.toString('base64') };
  });
  if (!gptImage) return { status: 200, body: { created: 1_700_000_000, data }, headers: {} };
  const servedSize = size === 'auto' ? '1024x1024' : size;
  const servedQuality = quality === 'auto' ? 'medium' : quality;
  const perImage = GPT_IMAGE_TOKENS[servedSize]![servedQuality]!;
  const textTokens = Math.max(1, Math.ceil((request.prompt as string).length / 4));
  return {
    status: 200,
    body: {
      created: 1_700_000_000,
      data,
      size: servedSize,
      quality: servedQuality,
      background: 'opaque',
      output_format: 'png',
      usage: {
        input_tokens: textTokens,
        output_tokens: perImage * n,
        total_tokens: textTokens + perImage * n,
        input_tokens_details: { text_tokens: textTokens, image_tokens: 0 },
      },
    },
    headers: {},
  };
}

/**
 * A successful image reply as gpt-image streams it (`stream: true`): `partial_images` previews per
 * image, then one `.completed` event per image carrying its size, quality and usage; written as SSE
 * with a pause between events.
 */
export async function writeImageStream(
  response: import('node:http').ServerResponse,
  reply: JsonReply,
  kind: 'image_generation' | 'image_edit',
  partialImages: number,
  headers: Record<string, string>,
): Promise<void> {
  const body = reply.body as { data: { b64_json?: string }[]; size?: string; quality?: string; usage?: Record<string, unknown> };
  response.writeHead(200, { ...headers, 'content-type': 'text/event-stream' });
  for (const image of body.data) {
    for (let index = 0; index < partialImages; index += 1) {
      response.write(
        `event: ${kind}.partial_image\ndata: ${JSON.stringify({ type: `${kind}.partial_image`, b64_json: image.b64_json, partial_image_index: index, size: body.size, quality: body.quality })}\n\n`,
      );
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    response.write(
      `event: ${kind}.completed\ndata: ${JSON.stringify({ type: `${kind}.completed`, b64_json: image.b64_json, size: body.size, quality: body.quality, usage: body.usage })}\n\n`,
    );
  }
  response.end();
}
