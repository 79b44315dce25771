import type { FastifyReply, FastifyRequest } from 'fastify';
import { runImages } from '../../generation/run-images.ts';
import { markPipelineRequest } from '../observability/access-log.ts';
import type { AppDeps } from '../app-deps.ts';
import { credentialsOf } from '../authenticate-request.ts';

/** The image generation route: same hand-over as embeddings (one JSON reply, refusals in OpenAI's shape). */
export async function handleImages(deps: AppDeps, prefix: string | null, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  markPipelineRequest(request);
  const abort = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) abort.abort();
  };
  reply.raw.once('close', onClose);
  const result = await runImages(deps, {
    requestId: request.id,
    prefix,
    body: request.body,
    credentials: credentialsOf(deps, request),
    ...(request.caller === undefined ? {} : { caller: request.caller }),
    signal: abort.signal,
  });
  return reply.headers(result.headers).send(result.body);
}
