import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { answerImageGeneration } from './images-dialect.ts';
import type { JsonReply } from './json-reply.ts';
import { formField, type MultipartForm } from './multipart-form.ts';

/**
 * OpenAI's multipart and audio endpoints, moderation and rerank, with the rules the real APIs
 * enforce: image edits need an `image` file in a format the API reads (PNG, JPEG, WebP) and a mask
 * that is a PNG; transcriptions need `file` and `model` and an audio file (a WAV's duration is read
 * from its header); speech needs `model`, `input` (at most 4,096 characters) and `voice`, and its
 * audio is streamed in several chunks; rerank needs `query` and `documents`.
 */
export type MediaOperation = 'images/edits' | 'audio/speech' | 'audio/transcriptions' | 'audio/translations' | 'moderations' | 'rerank' | 'cohere-rerank';

const invalid = (message: string, param: string | null, code: string | null = null): JsonReply => ({
  status: 400,
  body: { error: { message, type: 'invalid_request_error', param, code } },
  headers: {},
});
const ok = (body: unknown): JsonReply => ({ status: 200, body, headers: {} });

export function isForm(body: unknown): body is MultipartForm {
  return typeof body === 'object' && body !== null && 'files' in body && 'fields' in body;
}

export function answerImageEdit(model: string, body: unknown): JsonReply {
  if (!isForm(body)) return invalid('Expected a multipart/form-data body.', null);
  const images = body.files.filter((file) => file.name === 'image' || file.name === 'image[]');
  if (images.length === 0) return invalid("Missing required parameter: 'image'.", 'image', 'missing_required_parameter');
  for (const image of images)
    if (imageFormat(image.data) === undefined)
      return invalid(
        `Invalid file '${image.filename}': unsupported mimetype. Supported file formats are 'image/png', 'image/jpeg' and 'image/webp'.`,
        'image',
        'invalid_image_format',
      );
  const mask = body.files.find((file) => file.name === 'mask');
  if (mask !== undefined && imageFormat(mask.data) !== 'png') return invalid("Invalid 'mask': the mask must be a PNG image.", 'mask', 'invalid_image_format');
  const request: Record<string, unknown> = {};
  for (const name of Object.keys(body.fields)) {
    const value = formField(body, name)!;
    request[name] = name === 'n' ? Number(value) : value;
  }
  const { input_fidelity: _fidelity, ...rest } = request;
  const answer = answerImageGeneration(model, rest);
  const usage = (answer.body as { usage?: { input_tokens_details?: { image_tokens: number }; input_tokens: number; total_tokens: number } }).usage;
  if (usage?.input_tokens_details !== undefined) {
    // gpt-image counts the input images as image tokens (a 1024² image: 1,024 tokens, a share per KiB here).
    const imageTokens = images.reduce((sum, image) => sum + 256 + Math.ceil(image.data.length / 1024), 0);
    usage.input_tokens_details.image_tokens = imageTokens;
    usage.input_tokens += imageTokens;
    usage.total_tokens += imageTokens;
  }
  return answer;
}

function imageFormat(data: Buffer): 'png' | 'jpeg' | 'webp' | undefined {
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (data[0] === 0xff && data[1] === 0xd8) return 'jpeg';
  if (data.subarray(0, 4).toString() === 'RIFF' && data.subarray(8, 12).toString() === 'WEBP') return 'webp';
  return undefined;
}

/** A WAV's duration from its header (`fmt ` byte rate, `data` size); undefined when it is not a WAV. */
export function wavSeconds(data: Buffer): number | undefined {
  if (data.subarray(0, 4).toString() !== 'RIFF' || data.subarray(8, 12).toString() !== 'WAVE') return undefined;
  let at = 12;
  let byteRate: number | undefined;
  while (at + 8 <= data.length) {
    const id = data.subarray(at, at + 4).toString();
    const size = data.readUInt32LE(at + 4);
    if (id === 'fmt ') byteRate = data.readUInt32LE(at + 16);
    if (id === 'data') return byteRate === undefined || byteRate === 0 ? undefined : size / byteRate;
    at += 8 + size + (size % 2);
  }
  return undefined;
}

const TRANSCRIBE_FIELDS = new Set([
  'model',
  'language',
  'prompt',
  'response_format',
  'temperature',
  'timestamp_granularities[]',
  'include[]',
  'chunking_strategy',
  'stream',
]);

export function answerTranscription(
  operation: 'audio/transcriptions' | 'audio/translations',
  body: unknown,
): JsonReply | { status: number; text: string; contentType: string } {
  if (!isForm(body)) return invalid('Expected a multipart/form-data body.', null);
  for (const name of Object.keys(body.fields)) if (!TRANSCRIBE_FIELDS.has(name)) return invalid(`Unrecognized request argument supplied: ${name}`, name);
  const file = body.files.find((candidate) => candidate.name === 'file');
  if (file === undefined) return invalid("Missing required parameter: 'file'.", 'file', 'missing_required_parameter');
  const model = formField(body, 'model');
  if (model === undefined || model === '') return invalid("Missing required parameter: 'model'.", 'model', 'missing_required_parameter');
  if (operation === 'audio/translations' && model !== 'whisper-1') return invalid(`Model ${model} is not supported for translations.`, 'model');
  const seconds = wavSeconds(file.data);
  if (seconds === undefined)
    return invalid('Invalid file format. Supported formats: flac, m4a, mp3, mp4, mpeg, mpga, oga, ogg, wav, webm', 'file', 'invalid_value');
  const text = `${operation === 'audio/translations' ? 'Translated' : 'Transcribed'} ${seconds.toFixed(2)} seconds of ${file.filename}.`;
  const format = formField(body, 'response_format') ?? 'json';
  if (format === 'text') return { status: 200, text, contentType: 'text/plain; charset=utf-8' };
  if (format === 'verbose_json')
    return ok({ task: operation === 'audio/translations' ? 'translate' : 'transcribe', language: 'english', duration: seconds, text, segments: [] });
  if (format !== 'json') return invalid(`Invalid value: '${format}'.`, 'response_format', 'invalid_value');
  if (model === 'whisper-1') return ok({ text, usage: { type: 'duration', seconds: Math.ceil(seconds) } });
  // gpt-4o transcription models count audio tokens (10 per second here) and text tokens.
  const audioTokens = Math.ceil(seconds * 10);
  const outputTokens = Math.ceil(text.length / 4);
  return ok({
    text,
    usage: {
      type: 'tokens',
      input_tokens: audioTokens,
      input_token_details: { audio_tokens: audioTokens, text_tokens: 0 },
      output_tokens: outputTokens,
      total_tokens: audioTokens + outputTokens,
    },
  });
}

const SPEECH_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  opus: 'audio/opus',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

/** Speech: the checks, then audio bytes derived from the input, written in chunks as a real host streams them. */
export async function answerSpeech(body: unknown, response: ServerResponse, headers: Record<string, string>): Promise<JsonReply | undefined> {
  if (typeof body !== 'object' || body === null) return invalid('We could not parse the JSON body of your request.', null);
  const request = body as Record<string, unknown>;
  for (const field of ['model', 'input', 'voice']) {
    if (typeof request[field] !== 'string' || request[field] === '')
      return invalid(`Missing required parameter: '${field}'.`, field, 'missing_required_parameter');
  }
  const input = request.input as string;
  if (input.length > 4096) return invalid("Invalid 'input': string too long. Expected a string with maximum length 4096.", 'input', 'string_above_max_length');
  const format = typeof request.response_format === 'string' ? request.response_format : 'mp3';
  const contentType = SPEECH_TYPES[format];
  if (contentType === undefined) return invalid(`Invalid value: '${format}'.`, 'response_format', 'invalid_value');
  response.writeHead(200, { ...headers, 'content-type': contentType, 'transfer-encoding': 'chunked' });
  for (let chunk = 0; chunk < 4; chunk += 1) {
    response.write(createHash('sha256').update(`${input}\u0000${chunk}`).digest());
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  response.end();
  return undefined;
}

export function answerModeration(body: unknown): JsonReply {
  const request = body as Record<string, unknown> | null;
  const input = request?.input;
  const texts = typeof input === 'string' ? [input] : Array.isArray(input) ? input : undefined;
  if (texts === undefined || texts.length === 0) return invalid("Missing required parameter: 'input'.", 'input', 'missing_required_parameter');
  const model = typeof request?.model === 'string' ? request.model : 'omni-moderation-latest';
  return ok({
    id: `modr-${createHash('sha256').update(JSON.stringify(texts)).digest('hex').slice(0, 12)}`,
    model,
    results: texts.map((text) => {
      const flagged = typeof text === 'string' && /\bkill\b/i.test(text);
      return { flagged, categories: { violence: flagged, harassment: false }, category_scores: { violence: flagged ? 0.91 : 0.01, harassment: 0.01 } };
    }),
  });
}

/** Cohere's `/v2/rerank` and the Jina / OpenAI-compatible `/v1/rerank` (the shape LiteLLM and new-api send). */
export function answerRerank(operation: 'rerank' | 'cohere-rerank', body: unknown): JsonReply {
  const request = body as Record<string, unknown> | null;
  if (typeof request?.model !== 'string') return invalid("Missing required parameter: 'model'.", 'model');
  if (typeof request.query !== 'string' || request.query === '') return invalid("Missing required parameter: 'query'.", 'query');
  const documents = request.documents;
  if (!Array.isArray(documents) || documents.length === 0) return invalid("Missing required parameter: 'documents'.", 'documents');
  const query = request.query.toLowerCase();
  const scored = documents.map((document, index) => {
    const text = typeof document === 'string' ? document : String((document as { text?: unknown }).text ?? '');
    const words = query.split(/\s+/).filter((word) => text.toLowerCase().includes(word)).length;
    return { index, relevance_score: Math.round((words / Math.max(1, query.split(/\s+/).length)) * 1000) / 1000, text };
  });
  scored.sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index);
  const top = scored.slice(0, typeof request.top_n === 'number' ? request.top_n : scored.length);
  if (operation === 'cohere-rerank') {
    return ok({
      id: 'rerank-sim',
      results: top.map(({ index, relevance_score }) => ({ index, relevance_score })),
      meta: { api_version: { version: '2' }, billed_units: { search_units: Math.ceil(documents.length / 100) } },
    });
  }
  const tokens = Math.ceil((request.query.length + scored.reduce((sum, entry) => sum + entry.text.length, 0)) / 4);
  return ok({
    model: request.model,
    usage: { total_tokens: tokens },
    results: top.map(({ index, relevance_score, text }) => ({ index, relevance_score, document: { text } })),
  });
}
