import type { FastifyReply, FastifyRequest } from 'fastify';
import { runEmbeddings, type EmbeddingSurface } from '../../generation/run-embeddings.ts';
import { markPipelineRequest } from '../observability/access-log.ts';
import type { AppDeps } from '../app-deps.ts';
import { credentialsOf } from '../authenticate-request.ts';

/**
 * An embeddings route hands its request to the framework-free pipeline. The reply is one JSON
 * body, so Fastify sends it and renders refusals (thrown GatewayErrors) in the route's shape.
 */
export async function handleEmbeddings(
  deps: AppDeps,
  surface: EmbeddingSurface,
  prefix: string | null,
  request: FastifyRequest,
  reply: FastifyReply,
  pathModel?: string,
): Promise<FastifyReply> {
  // The pipeline records every embeddings request (refusals too), and its access line with it.
  markPipelineRequest(request);
  const abort = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) abort.abort();
  };
  reply.raw.once('close', onClose);
  const result = await runEmbeddings(deps, {
    requestId: request.id,
    surface,
    prefix,
    body: request.body,
    ...(pathModel === undefined ? {} : { pathModel }),
    credentials: credentialsOf(deps, request),
    ...(request.caller === undefined ? {} : { caller: request.caller }),
    signal: abort.signal,
  });
  return reply.headers(result.headers).send(result.body);
}
