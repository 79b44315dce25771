import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MultipartUpload } from '../../core/multipart-upload.ts';
import type { MediaAnswer, MediaCall } from '../../generation/run-media.ts';
import { markPipelineRequest } from '../observability/access-log.ts';
import type { AppDeps } from '../app-deps.ts';
import { readMultipartUpload, type UploadLimits } from '../read-multipart-upload.ts';
import { credentialsOf } from '../authenticate-request.ts';

/** OpenAI's own upload limits: 25 MiB of audio; an image to edit up to 50 MB (gpt-image). */
export const AUDIO_UPLOAD_LIMITS: UploadLimits = {
  maxFileBytes: 25 * 1_048_576,
  maxFiles: 1,
  maxFields: 16,
  maxFieldBytes: 64 * 1024,
  maxDrainBytes: 64 * 1_048_576,
};
export const IMAGE_UPLOAD_LIMITS: UploadLimits = {
  maxFileBytes: 50 * 1_000_000,
  maxFiles: 17,
  maxFields: 16,
  maxFieldBytes: 64 * 1024,
  maxDrainBytes: 64 * 1_048_576,
};

/** A media route with a JSON body (image generation, speech, moderation, rerank). */
export async function handleMediaJson(
  deps: AppDeps,
  prefix: string | null,
  request: FastifyRequest,
  reply: FastifyReply,
  run: (call: MediaCall, body: unknown) => Promise<MediaAnswer>,
): Promise<FastifyReply> {
  markPipelineRequest(request);
  return sendAnswer(reply, await run(mediaCall(deps, prefix, request, reply), request.body));
}

/**
 * A media route with a multipart body (image edits, transcriptions, translations): the upload is
 * spooled with its limits (refusals answered after the body is drained), run, then removed.
 */
export async function handleMediaUpload(
  deps: AppDeps,
  prefix: string | null,
  request: FastifyRequest,
  reply: FastifyReply,
  limits: UploadLimits,
  run: (call: MediaCall, upload: MultipartUpload) => Promise<MediaAnswer>,
): Promise<FastifyReply> {
  markPipelineRequest(request);
  const upload = await readMultipartUpload(request.raw, limits);
  try {
    return sendAnswer(reply, await run(mediaCall(deps, prefix, request, reply), upload));
  } finally {
    await upload.dispose();
  }
}

function mediaCall(deps: AppDeps, prefix: string | null, request: FastifyRequest, reply: FastifyReply): MediaCall {
  const abort = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) abort.abort();
  });
  return {
    requestId: request.id,
    prefix,
    credentials: credentialsOf(deps, request),
    ...(request.caller === undefined ? {} : { caller: request.caller }),
    signal: abort.signal,
  };
}

/** JSON as JSON; a transcript's text or subtitles as the upstream typed them; audio streamed as it arrives. */
function sendAnswer(reply: FastifyReply, answer: MediaAnswer): FastifyReply {
  reply.headers(answer.headers);
  if (answer.json !== undefined) return reply.send(answer.json);
  const other = answer.other!;
  reply.header('content-type', other.contentType);
  if (other.text !== undefined) return reply.send(other.text);
  return reply.send(other.stream instanceof Readable ? other.stream : Readable.from(other.stream));
}
