import { estimateTextTokens } from '../billing/estimate-tokens.ts';
import type { MultipartUpload } from '../core/multipart-upload.ts';
import type { MediaUsage, Usage } from '../core/usage.ts';
import { decodeSpeechRequest, decodeTranscriptionRequest, readTranscriptionUsage, type TranscriptionRequest } from '../protocols/openai-audio/index.ts';
import type { GenerationDeps } from './run-generation.ts';
import { runMedia, type MediaAnswer, type MediaCall } from './run-media.ts';

/** Audio tokens a second of audio can take at most (gpt-4o transcription models use ~10): the hold's bound. */
export const MAX_AUDIO_TOKENS_PER_SECOND = 50;

/**
 * `POST /v1/audio/speech`: billed by the input's characters (and its text tokens, for a model
 * priced by them), known before the call, so the audio is streamed to the client as it arrives.
 */
export function runSpeech(deps: GenerationDeps, call: MediaCall, body: unknown): Promise<MediaAnswer> {
  return runMedia(deps, call, 'openai-audio', () => {
    const request = decodeSpeechRequest(body);
    const media: MediaUsage = { characters: request.characters };
    return {
      operation: 'audio/speech',
      model: request.model,
      body: request.body,
      reply: 'stream',
      promptText: request.input,
      held: () => ({ media }),
      billed: () => ({ inputTokens: estimateTextTokens(request.input), outputTokens: 0, media }),
    };
  });
}

/**
 * `POST /v1/audio/transcriptions` and `/v1/audio/translations`: the upload sent on as it came;
 * billed by the seconds (whisper) or audio tokens (gpt-4o) the reply reports, bounded by what the
 * file can hold; a reply that reports nothing (`text`, `srt`, `vtt`) is billed by the WAV's
 * duration, or for another format by the file's size at a low speech bitrate (named in a warning).
 */
export function runTranscription(
  deps: GenerationDeps,
  call: MediaCall,
  operation: 'audio/transcriptions' | 'audio/translations',
  upload: MultipartUpload,
): Promise<MediaAnswer> {
  return runMedia(deps, call, 'openai-audio', () => {
    const request = decodeTranscriptionRequest(upload);
    const seconds = boundSeconds(request);
    return {
      operation,
      model: request.model,
      body: {},
      upload,
      promptText: request.prompt,
      held: () => ({ media: { seconds, audioInputTokens: seconds * MAX_AUDIO_TOKENS_PER_SECOND } }),
      billed: (reply, _price, warnings) => billedTranscription(request, reply.json, warnings),
    };
  });
}

/** The most seconds the upload can be billed for: the WAV's own duration (to the next second), else the size bound. */
function boundSeconds(request: TranscriptionRequest): number {
  return request.seconds === undefined ? request.maxSeconds : Math.ceil(request.seconds);
}

function billedTranscription(request: TranscriptionRequest, json: Record<string, unknown> | undefined, warnings: string[]): Usage {
  const facts = readTranscriptionUsage(json);
  const bound = boundSeconds(request);
  const media = { ...facts.media };
  if (!facts.reported) {
    media.seconds = request.seconds ?? request.maxSeconds;
    if (request.seconds === undefined) warnings.push('estimated:usage.seconds');
  }
  if (media.seconds !== undefined && media.seconds > bound) {
    warnings.push('clamped:usage.seconds');
    media.seconds = bound;
  }
  if (media.audioInputTokens !== undefined && media.audioInputTokens > bound * MAX_AUDIO_TOKENS_PER_SECOND) {
    warnings.push('clamped:usage.audio_tokens');
    media.audioInputTokens = bound * MAX_AUDIO_TOKENS_PER_SECOND;
  }
  return { inputTokens: facts.textInputTokens, outputTokens: facts.outputTokens, media };
}
