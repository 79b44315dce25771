import { GatewayError, invalidRequest } from '../../core/gateway-error.ts';
import { type MultipartUpload, uploadField, uploadFiles } from '../../core/multipart-upload.ts';
import type { MediaUsage } from '../../core/usage.ts';
import { isRecord } from '../shared/is-record.ts';
import { wavSeconds } from './wav-seconds.ts';

/** OpenAI's bound on speech input. */
export const MAX_SPEECH_CHARS = 4096;

/** `POST /v1/audio/speech` as the gateway reads it. */
export interface SpeechRequest {
  model: string;
  input: string;
  /** Characters of input (code points), what TTS is priced by. */
  characters: number;
  body: Record<string, unknown>;
}

const SPEECH_FIELDS = new Set(['model', 'input', 'voice', 'instructions', 'response_format', 'speed', 'stream_format']);

/** Reads and checks a speech request: `model`, `input` (at most 4,096 characters) and `voice` are required, as OpenAI requires them. */
export function decodeSpeechRequest(body: unknown): SpeechRequest {
  if (!isRecord(body)) throw invalidRequest('The request body must be a JSON object.');
  for (const field of Object.keys(body)) if (!SPEECH_FIELDS.has(field)) throw invalidRequest(`Unrecognized request argument supplied: ${field}`, field);
  const { model, input, voice } = body;
  if (typeof model !== 'string' || model === '')
    throw invalidRequest('The request body needs a "model" field naming a speech model your key can use.', 'model');
  if (typeof input !== 'string' || input === '') throw invalidRequest('"input" is required: the text to speak.', 'input');
  const characters = [...input].length;
  if (characters > MAX_SPEECH_CHARS) throw invalidRequest(`"input" may be at most ${MAX_SPEECH_CHARS} characters; it has ${characters}.`, 'input');
  if (typeof voice !== 'string' && !isRecord(voice)) throw invalidRequest('"voice" is required (such as "alloy").', 'voice');
  return { model, input, characters, body };
}

/** A transcription or translation upload as the gateway reads it. */
export interface TranscriptionRequest {
  model: string;
  prompt: string;
  responseFormat: string;
  /** Exact for a WAV (read from its header); otherwise undefined and held by the file's size. */
  seconds: number | undefined;
  /** The most audio the file can hold at a low speech bitrate (16 kbit/s): the hold's duration. */
  maxSeconds: number;
}

const TRANSCRIPTION_FIELDS = new Set([
  'model',
  'language',
  'prompt',
  'response_format',
  'temperature',
  'timestamp_granularities[]',
  'include[]',
  'chunking_strategy',
]);
/** 16 kbit/s: speech codecs seldom go lower, so a file of N bytes holds at most N / 2,000 seconds. */
const MIN_BYTES_PER_SECOND = 2_000;

/** Reads and checks a transcription (or translation) form: one `file`, a `model`; streamed transcripts are refused by name. */
export function decodeTranscriptionRequest(upload: MultipartUpload): TranscriptionRequest {
  for (const [name, value] of upload.fields) {
    if (name === 'stream' && value === 'true')
      throw invalidRequest('"stream": streamed transcripts are not relayed by this gateway; ask for the whole transcript.', 'stream');
    if (name !== 'stream' && !TRANSCRIPTION_FIELDS.has(name)) throw invalidRequest(`Unrecognized request argument supplied: ${name}`, name);
  }
  const files = uploadFiles(upload, 'file');
  if (files.length !== 1 || upload.files.length !== 1) throw invalidRequest('Send exactly one audio file, in the "file" field.', 'file');
  const model = uploadField(upload, 'model');
  if (model === undefined || model === '') throw invalidRequest('The form needs a "model" field naming a transcription model your key can use.', 'model');
  const file = files[0]!;
  return {
    model,
    prompt: uploadField(upload, 'prompt') ?? '',
    responseFormat: uploadField(upload, 'response_format') ?? 'json',
    seconds: wavSeconds(file.head, file.size),
    maxSeconds: Math.ceil(file.size / MIN_BYTES_PER_SECOND),
  };
}

/** What a transcription reply says it used: whisper's `usage.seconds` (or verbose_json's `duration`), gpt-4o's token usage. */
export interface TranscriptionFacts {
  media: MediaUsage;
  textInputTokens: number;
  outputTokens: number;
  /** False when the reply counted nothing (a text or subtitle format). */
  reported: boolean;
}

export function readTranscriptionUsage(reply: Record<string, unknown> | undefined): TranscriptionFacts {
  const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);
  const usage = reply !== undefined && isRecord(reply.usage) ? reply.usage : undefined;
  if (reply !== undefined && typeof reply.text !== 'string')
    throw new GatewayError('upstream_invalid_response', 'The upstream transcription reply has no "text".');
  if (usage?.type === 'tokens') {
    const details = isRecord(usage.input_token_details) ? usage.input_token_details : {};
    const input = count(usage.input_tokens) ?? 0;
    const audio = count(details.audio_tokens) ?? input;
    return {
      media: { audioInputTokens: audio },
      textInputTokens: count(details.text_tokens) ?? Math.max(0, input - audio),
      outputTokens: count(usage.output_tokens) ?? 0,
      reported: true,
    };
  }
  const seconds = count(usage?.seconds) ?? count(reply?.duration);
  return { media: seconds === undefined ? {} : { seconds }, textInputTokens: 0, outputTokens: 0, reported: seconds !== undefined };
}
