import { createHash } from 'node:crypto';
import type { JsonReply } from './json-reply.ts';
import { providerError } from './provider-errors.ts';

/**
 * Google's image generation as the real services take it, refused in Google's error shape:
 * Gemini image models (`gemini-2.5-flash-image`, …) through `generateContent` with image output
 * (`responseModalities` TEXT and/or IMAGE only, `imageConfig.aspectRatio` from Gemini's list, one
 * candidate), answering `inlineData` parts with image tokens by modality in `usageMetadata`; and
 * Vertex Imagen through `:predict` (`instances[].prompt`, `parameters.sampleCount` 1–4, Imagen's
 * aspect ratios), answering `predictions[].bytesBase64Encoded`. Images are deterministic
 * PNG-signature blobs per prompt, as in the OpenAI images dialect.
 */
const GEMINI_RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'];
const IMAGEN_RATIOS = ['1:1', '3:4', '4:3', '9:16', '16:9'];
const IMAGEN_PARAMETERS = new Set([
  'sampleCount',
  'aspectRatio',
  'negativePrompt',
  'personGeneration',
  'safetySetting',
  'addWatermark',
  'enhancePrompt',
  'outputOptions',
  'sampleImageSize',
  'seed',
  'language',
  'includeRaiReason',
  'storageUri',
]);
/** Tokens Gemini counts for one generated image (gemini-2.5-flash-image, up to 1024x1024). */
export const GEMINI_IMAGE_TOKENS = 1290;

export function isGeminiImageModel(model: string): boolean {
  return /gemini-.*image/i.test(model);
}

export function isImagenModel(model: string): boolean {
  return /^imagen/i.test(model);
}

const invalid = (message: string): JsonReply => {
  const error = providerError('gemini-generate-content', 400, message);
  return { status: 400, body: error.body, headers: {} };
};

function pngFor(model: string, prompt: string, index: number): string {
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    createHash('sha256').update(`${model}\u0000${prompt}\u0000${index}`).digest(),
  ]).toString('base64');
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `generateContent` on a Gemini image model. */
export function answerGeminiImage(model: string, body: unknown): JsonReply {
  if (!isObject(body)) return invalid('Invalid JSON payload received.');
  const contents = body.contents;
  if (!Array.isArray(contents) || contents.length === 0) return invalid('* GenerateContentRequest.contents: contents is not specified\n');
  const config = isObject(body.generationConfig) ? body.generationConfig : {};
  const modalities = (config.responseModalities ?? ['TEXT', 'IMAGE']) as unknown[];
  if (!Array.isArray(modalities) || modalities.some((modality) => modality !== 'TEXT' && modality !== 'IMAGE')) {
    return invalid('Model does not support the requested response modalities: ' + JSON.stringify(modalities));
  }
  if (config.candidateCount !== undefined && config.candidateCount !== 1) return invalid(`Multiple candidates is not enabled for models/${model}`);
  const ratio = isObject(config.imageConfig) ? config.imageConfig.aspectRatio : undefined;
  if (ratio !== undefined && !GEMINI_RATIOS.includes(ratio as string))
    return invalid(`* GenerateContentRequest.generation_config.image_config.aspect_ratio: unsupported aspect ratio "${String(ratio)}"`);
  const last = contents.at(-1);
  const prompt = (isObject(last) && Array.isArray(last.parts) ? last.parts : [])
    .map((part: unknown) => (isObject(part) && typeof part.text === 'string' ? part.text : ''))
    .join('\n');
  const promptTokens = Math.max(1, Math.ceil(prompt.length / 4));
  const withText = modalities.includes('TEXT');
  const imageTokens = modalities.includes('IMAGE') ? GEMINI_IMAGE_TOKENS : 0;
  const textTokens = withText ? 5 : 0;
  const parts: Record<string, unknown>[] = [];
  if (withText) parts.push({ text: 'Here is your image.' });
  if (imageTokens > 0) parts.push({ inlineData: { mimeType: 'image/png', data: pngFor(model, prompt, 0) } });
  return {
    status: 200,
    body: {
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
      usageMetadata: {
        promptTokenCount: promptTokens,
        candidatesTokenCount: imageTokens + textTokens,
        totalTokenCount: promptTokens + imageTokens + textTokens,
        promptTokensDetails: [{ modality: 'TEXT', tokenCount: promptTokens }],
        candidatesTokensDetails: [
          ...(imageTokens > 0 ? [{ modality: 'IMAGE', tokenCount: imageTokens }] : []),
          ...(textTokens > 0 ? [{ modality: 'TEXT', tokenCount: textTokens }] : []),
        ],
      },
      modelVersion: model,
      responseId: `img-${createHash('sha256').update(prompt).digest('hex').slice(0, 12)}`,
    },
    headers: {},
  };
}

/** Vertex Imagen's `:predict`. */
export function answerImagenPredict(model: string, body: unknown): JsonReply {
  if (!isObject(body)) return invalid('Invalid JSON payload received.');
  const instances = body.instances;
  if (!Array.isArray(instances) || instances.length !== 1 || !isObject(instances[0])) return invalid('Imagen takes exactly one instance.');
  const instance = instances[0];
  for (const field of Object.keys(instance))
    if (field !== 'prompt') return invalid(`Invalid JSON payload received. Unknown name "${field}" at 'instances[0]': Cannot find field.`);
  if (typeof instance.prompt !== 'string' || instance.prompt === '') return invalid('The prompt is empty. Please provide a prompt.');
  const parameters = isObject(body.parameters) ? body.parameters : {};
  for (const field of Object.keys(parameters)) if (!IMAGEN_PARAMETERS.has(field)) return invalid(`Unknown parameter "${field}".`);
  const count = parameters.sampleCount ?? 4;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 4) return invalid('sampleCount must be between 1 and 4.');
  if (parameters.aspectRatio !== undefined && !IMAGEN_RATIOS.includes(parameters.aspectRatio as string)) {
    return invalid(`Unsupported aspect ratio: ${String(parameters.aspectRatio)}. Supported: ${IMAGEN_RATIOS.join(', ')}.`);
  }
  const output = isObject(parameters.outputOptions) ? parameters.outputOptions : {};
  const mimeType = (output.mimeType ?? 'image/png') as string;
  if (mimeType !== 'image/png' && mimeType !== 'image/jpeg') return invalid(`Unsupported output mime type: ${mimeType}.`);
  const predictions = Array.from({ length: count }, (_, index) => ({ bytesBase64Encoded: pngFor(model, instance.prompt as string, index), mimeType }));
  return { status: 200, body: { predictions }, headers: {} };
}

/**
 * A Gemini `generateContent` the image rules decide: an image model's request answered with
 * images, a text model asked for image output refused as Gemini refuses it; undefined for an
 * ordinary text request (the turn dialect answers it).
 */
export function geminiImageAnswer(model: string, body: unknown): JsonReply | undefined {
  if (isGeminiImageModel(model)) return answerGeminiImage(model, body);
  const config = isObject(body) && isObject(body.generationConfig) ? body.generationConfig : {};
  const modalities = config.responseModalities;
  if (Array.isArray(modalities) && modalities.includes('IMAGE')) return invalid('Model does not support the requested response modalities: image');
  return undefined;
}
