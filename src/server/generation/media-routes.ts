import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { runImageEdits, runImages } from '../../generation/run-images.ts';
import type { AppDeps } from '../app-deps.ts';
import { runSpeech, runTranscription } from '../../generation/run-audio.ts';
import { runModeration, runRerank } from '../../generation/run-rerank-moderation.ts';
import { AUDIO_UPLOAD_LIMITS, handleMediaJson, handleMediaUpload, IMAGE_UPLOAD_LIMITS } from './handle-media.ts';

type OnRequest = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => void;

/**
 * OpenAI's media endpoints (images, audio, moderation) and rerank, each behind the same key check
 * as generation (`authenticate`, run in `onRequest` before the body is read); refusals in OpenAI's
 * error shape.
 */
export function registerMediaRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  prefix: string,
  surface: string | null,
  authenticate: (protocol: string) => { onRequest: OnRequest },
): void {
  const openai = { protocol: 'openai-chat' as const };
  app.post(`${prefix}/v1/images/generations`, { config: openai, ...authenticate('openai-images') }, (request, reply) =>
    handleMediaJson(deps, surface, request, reply, (call, body) => runImages(deps, call, body)),
  );
  app.post(`${prefix}/v1/images/edits`, { config: openai, ...authenticate('openai-images') }, (request, reply) =>
    handleMediaUpload(deps, surface, request, reply, IMAGE_UPLOAD_LIMITS, (call, upload) => runImageEdits(deps, call, upload)),
  );
  app.post(`${prefix}/v1/audio/speech`, { config: openai, ...authenticate('openai-audio') }, (request, reply) =>
    handleMediaJson(deps, surface, request, reply, (call, body) => runSpeech(deps, call, body)),
  );
  app.post(`${prefix}/v1/moderations`, { config: openai, ...authenticate('openai-moderations') }, (request, reply) =>
    handleMediaJson(deps, surface, request, reply, (call, body) => runModeration(deps, call, body)),
  );
  app.post(`${prefix}/v1/rerank`, { config: openai, ...authenticate('rerank') }, (request, reply) =>
    handleMediaJson(deps, surface, request, reply, (call, body) => runRerank(deps, call, body)),
  );
  for (const operation of ['audio/transcriptions', 'audio/translations'] as const) {
    app.post(`${prefix}/v1/${operation}`, { config: openai, ...authenticate('openai-audio') }, (request, reply) =>
      handleMediaUpload(deps, surface, request, reply, AUDIO_UPLOAD_LIMITS, (call, upload) => runTranscription(deps, call, operation, upload)),
    );
  }
}
