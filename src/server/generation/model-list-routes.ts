import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Caller } from '../../access/authenticate-key.ts';
import { visibleModels } from '../../access/authorize-model.ts';
import type { CredentialStyle } from '../../access/extract-api-key.ts';
import { credentialStyleOf } from '../../protocols/codec-registry.ts';
import type { ProtocolId } from '../../protocols/protocol-codec.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import { encodeGeminiModel, encodeGeminiModelList } from '../../protocols/gemini-generate-content/index.ts';
import type { AppDeps } from '../app-deps.ts';
import { authenticateRequest } from '../authenticate-request.ts';
import { encodeAnthropicModelList, encodeOpenaiModelList } from './encode-model-lists.ts';

type ListShape = 'openai' | 'anthropic' | 'gemini' | 'codex';

/**
 * `GET /v1/models` is shared by four kinds of client, each expecting its own shape; the
 * request's headers tell them apart (protocols.md §1.6). The list is always the key's group,
 * narrowed by the key's own allow-list and the path-prefix surface.
 */
export function registerModelListRoutes(app: FastifyInstance, deps: AppDeps, prefix: string, surface: string | null): void {
  const listModels = (request: FastifyRequest, style: CredentialStyle): { caller: Caller; models: string[] } => {
    const caller = authenticateRequest(deps, request, style);
    return { caller, models: visibleModels(deps.snapshot.current, caller, surface) };
  };

  app.get(`${prefix}/v1/models`, { config: { protocol: 'openai-chat' } }, async (request, reply) => {
    const shape = detectListShape(request);
    const { models } = listModels(request, credentialStyleFor(shape));
    const query = request.query as Record<string, string | undefined>;
    switch (shape) {
      case 'anthropic':
        return reply.send(encodeAnthropicModelList(models, deps.snapshot.current.loadedAt, query));
      case 'gemini':
        return reply.send(encodeGeminiModelList(models, pageOptions(query)));
      case 'codex':
        // Codex expects its own catalog; an empty one makes it fall back to defaults quietly.
        return reply.send({ models: [] });
      case 'openai':
        return reply.send(encodeOpenaiModelList(models, deps.snapshot.current.loadedAt));
      default: {
        const unreachable: never = shape;
        return unreachable;
      }
    }
  });

  app.get(`${prefix}/v1/models/:id`, { config: { protocol: 'openai-chat' } }, async (request, reply) => {
    const shape = detectListShape(request);
    const { models } = listModels(request, credentialStyleFor(shape));
    const id = decodeURIComponent((request.params as { id: string }).id).replace(/^models\//, '');
    if (!models.includes(id)) {
      throw new GatewayError('model_not_found', `Model "${id}" is not available to this key's group; list them with GET /v1/models.`);
    }
    if (shape === 'gemini') return reply.send(encodeGeminiModel(id));
    const list =
      shape === 'anthropic'
        ? encodeAnthropicModelList([id], deps.snapshot.current.loadedAt, {}).data
        : encodeOpenaiModelList([id], deps.snapshot.current.loadedAt).data;
    return reply.send(list[0]);
  });

  for (const version of ['v1beta', 'v1alpha']) {
    app.get(`${prefix}/${version}/models`, { config: { protocol: 'gemini-generate-content' } }, async (request, reply) => {
      const { models } = listModels(request, 'gemini');
      return reply.send(encodeGeminiModelList(models, pageOptions(request.query as Record<string, string | undefined>)));
    });
  }
}

function detectListShape(request: FastifyRequest): ListShape {
  const query = request.query as Record<string, unknown>;
  if (typeof query.client_version === 'string') return 'codex';
  if (request.headers['anthropic-version'] !== undefined) return 'anthropic';
  if (request.headers['x-goog-api-key'] !== undefined || typeof query.key === 'string') return 'gemini';
  return 'openai';
}

/** The protocol whose clients ask for each list shape: the key is read where they put it. */
const SHAPE_PROTOCOL: Record<ListShape, ProtocolId> = {
  openai: 'openai-chat',
  codex: 'openai-responses',
  anthropic: 'anthropic-messages',
  gemini: 'gemini-generate-content',
};

function credentialStyleFor(shape: ListShape): CredentialStyle {
  return credentialStyleOf(SHAPE_PROTOCOL[shape]);
}

function pageOptions(query: Record<string, string | undefined>): { pageSize?: number; pageToken?: string } {
  const pageSize = Number(query.pageSize);
  return {
    ...(Number.isInteger(pageSize) && pageSize > 0 ? { pageSize } : {}),
    ...(query.pageToken ? { pageToken: query.pageToken } : {}),
  };
}
