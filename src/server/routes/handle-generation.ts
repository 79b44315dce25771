import type { FastifyReply, FastifyRequest } from 'fastify';
import { NodeReplyConnection, type GenerationRequest, type GenerationRoute } from '../../generation/generation-request.ts';
import { runGeneration } from '../../generation/run-generation.ts';
import { markPipelineRequest } from '../access-log.ts';
import type { AppDeps } from '../app-deps.ts';
import { credentialsOf } from './authenticate-request.ts';

/** What a route knows from its path: Gemini's model and streaming choice, the client's framing. */
export type GenerationTarget = Pick<GenerationRequest, 'pathModel' | 'pathStream' | 'encoderOptions'>;

/** A generation route hands its request to the framework-free pipeline (`runGeneration`). */
export function handleGeneration(
  deps: AppDeps,
  route: GenerationRoute,
  request: FastifyRequest,
  reply: FastifyReply,
  target: GenerationTarget = {},
): Promise<void> {
  // From here the pipeline records the request, and its access line with it.
  markPipelineRequest(request);
  // Optional fields assigned, not spread in: a conditional spread allocates and copies a
  // throwaway object per request.
  const generation: GenerationRequest = {
    requestId: request.id,
    route,
    body: request.body,
    credentials: credentialsOf(deps, request),
  };
  if (request.rawBody !== undefined) generation.rawBody = request.rawBody;
  if (target.pathModel !== undefined) generation.pathModel = target.pathModel;
  if (target.pathStream !== undefined) generation.pathStream = target.pathStream;
  if (target.encoderOptions !== undefined) generation.encoderOptions = target.encoderOptions;
  if (request.caller !== undefined) generation.caller = request.caller;
  // The pipeline holds the body from here, and lets go of it once a stream is committed: the
  // Fastify request (kept by its reply as long as the stream lasts) must not hold it too.
  request.body = undefined;
  request.rawBody = undefined;
  // Taking the reply over is Fastify's `hijack`; the pipeline then writes to the raw response.
  return runGeneration(deps, generation, new NodeReplyConnection(reply.raw, reply.hijack.bind(reply), deps.runtime.now));
}
