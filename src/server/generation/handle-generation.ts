import type { FastifyReply, FastifyRequest } from 'fastify';
import { NodeReplyConnection, type GenerationRequest, type GenerationRoute } from '../../generation/generation-request.ts';
import { runGeneration } from '../../generation/run-generation.ts';
import { runCompaction } from '../../generation/run-compaction.ts';
import { compactOnThreshold } from '../../generation/compact-on-threshold.ts';
import { authenticateRequest } from '../authenticate-request.ts';
import { compactionTurnStream, withoutCompactionTrigger } from '../../responses/compaction-turn.ts';
import { markPipelineRequest } from '../observability/access-log.ts';
import type { AppDeps } from '../app-deps.ts';
import { credentialsOf } from '../authenticate-request.ts';

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

/** `POST /v1/responses/compact`: one generation whose reply the gateway shapes (see runCompaction). */
export async function handleCompaction(deps: AppDeps, route: GenerationRoute, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const caller = request.caller ?? authenticateRequest(deps, request, route.credentials);
  const answer = await runCompaction(deps, { requestId: request.id, route, body: request.body, credentials: credentialsOf(deps, request), caller });
  // The pipeline wrote this request's line when the summary request ran; otherwise the framework does.
  if (answer.recorded) markPipelineRequest(request);
  if (answer.warnings !== undefined && answer.warnings.length > 0) reply.header('x-switchyard-warnings', [...new Set(answer.warnings)].join(', '));
  await reply.code(answer.status).send(answer.body);
}

/** `POST /v1/responses` whose input ends with a `compaction_trigger`: the compaction as a response (see compaction-turn.ts). */
export async function handleCompactionTurn(deps: AppDeps, route: GenerationRoute, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const body = withoutCompactionTrigger(request.body as Record<string, unknown>);
  const caller = request.caller ?? authenticateRequest(deps, request, route.credentials);
  const answer = await runCompaction(deps, { requestId: request.id, route, body, credentials: credentialsOf(deps, request), caller }, true);
  if (answer.recorded) markPipelineRequest(request);
  const compacted = answer.body as { id: string; created_at: number; output: Array<Record<string, unknown>>; usage: unknown };
  const item = answer.status === 200 ? compacted.output.at(-1) : undefined;
  if (item === undefined) return reply.code(answer.status).send(answer.body);
  if (body.stream === true) {
    reply.header('content-type', 'text/event-stream; charset=utf-8');
    return reply.send(compactionTurnStream({ id: compacted.id, created_at: compacted.created_at, model: body.model, item, usage: compacted.usage }));
  }
  return reply.send({
    id: compacted.id,
    object: 'response',
    created_at: compacted.created_at,
    status: 'completed',
    model: body.model,
    output: [item],
    usage: compacted.usage,
  });
}

/** `POST /v1/responses` asking for server-side compaction (`context_management`): compacted first where the upstream cannot (see compact-on-threshold.ts). */
export async function handleThresholdTurn(
  deps: AppDeps,
  route: GenerationRoute,
  request: FastifyRequest,
  reply: FastifyReply,
  threshold: number,
): Promise<void> {
  const asked: GenerationRequest = { requestId: request.id, route, body: request.body, credentials: credentialsOf(deps, request) };
  if (request.caller !== undefined) asked.caller = request.caller;
  const outcome = await compactOnThreshold(deps, asked, threshold);
  if (outcome.kind === 'failed') return reply.code(outcome.reply.status).send(outcome.reply.body);
  if (outcome.kind === 'pass') return handleGeneration(deps, route, request, reply);
  request.body = outcome.body;
  request.rawBody = undefined;
  return handleGeneration(deps, route, request, reply, outcome.item ? { encoderOptions: { leadingItems: [outcome.item] } } : {});
}
