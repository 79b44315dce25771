import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { answerInputItems, answerStoredResponse, responseNotFound, type StoredResponseAccess } from '../../responses/answer-stored-response.ts';
import type { AppDeps } from '../app-deps.ts';
import { authenticateRequest } from '../authenticate-request.ts';

/** An upstream read or delete of a stored response gives up after this long. */
const UPSTREAM_TIMEOUT_MS = 30_000;

/** `GET` and `DELETE /v1/responses/{id}` and `GET /v1/responses/{id}/input_items` (stateful Responses), at the root and under the prefix. */
export function registerStoredResponseRoutes(app: FastifyInstance, deps: AppDeps, prefix: string): void {
  const handler = (method: 'GET' | 'DELETE' | 'LIST') => async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = authenticateRequest(deps, request, 'bearer');
    const { id } = request.params as { id: string };
    if (!deps.responses) throw responseNotFound(id);
    const access: StoredResponseAccess = {
      responses: deps.responses,
      channel: (channelId) => deps.snapshot.current.channels.get(channelId),
      upstream: deps.relay.upstream,
      now: deps.runtime.now,
      timeoutMs: Math.min(UPSTREAM_TIMEOUT_MS, deps.relay.totalTimeoutMs),
    };
    const answer =
      method === 'LIST'
        ? await answerInputItems(access, caller.key.id, id, (request.query ?? {}) as Record<string, unknown>)
        : await answerStoredResponse(access, caller.key.id, id, method);
    return reply.code(answer.status).send(answer.body);
  };
  app.get(`${prefix}/v1/responses/:id`, { config: { protocol: 'openai-responses' } }, handler('GET'));
  app.delete(`${prefix}/v1/responses/:id`, { config: { protocol: 'openai-responses' } }, handler('DELETE'));
  app.get(`${prefix}/v1/responses/:id/input_items`, { config: { protocol: 'openai-responses' } }, handler('LIST'));
}
