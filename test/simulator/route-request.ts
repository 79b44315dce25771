import type { SimEmbeddingWire } from './embeddings-dialect.ts';
import type { MediaOperation } from './media-dialect.ts';
import type { SimulatorEndpoint, SimulatorProtocol } from './recorded-request.ts';

export interface RouteMatch {
  protocol: SimulatorProtocol;
  endpoint: SimulatorEndpoint;
  /** From the path (Gemini, model lookups); OpenAI and Anthropic name the model in the body. */
  pathModel: string | undefined;
  /** Gemini streams by method name, the others by a body field. */
  pathStream: boolean;
  /** For `embed`: which provider's embeddings wire format. */
  embedding?: SimEmbeddingWire;
  /** For `stored-response`: `GET …/{id}/input_items` rather than the response itself. */
  inputItems?: boolean;
  /** For `media`: which media operation (image edits, audio, moderation, rerank). */
  media?: MediaOperation;
  /** Bedrock InvokeModel with a Claude model: Anthropic's body, streams wrapped in event-stream `chunk` frames. */
  bedrockInvoke?: boolean;
}

const GEMINI_ACTION = /^\/(?:v1beta|v1|v1alpha)\/models\/(.+?)(?::|%3A)(generateContent|streamGenerateContent|countTokens|embedContent|batchEmbedContents)$/i;
const GEMINI_ONLY_MODELS = /^\/(?:v1beta|v1alpha)\/models(?:\/(.+))?$/;
const SHARED_MODELS = /^\/v1\/models(?:\/(.+))?$/;
const STORED_RESPONSE = /^\/v1\/responses\/([^/]+)(\/input_items)?$/;

const unknownRoute: RouteMatch = { protocol: 'unknown', endpoint: 'unknown', pathModel: undefined, pathStream: false };

function stripModelsPrefix(model: string): string {
  const decoded = decodeURIComponent(model);
  return decoded.startsWith('models/') ? decoded.slice('models/'.length) : decoded;
}

/**
 * `GET /v1/models` is served to OpenAI, Anthropic and Gemini (genai ≥3 uses /v1) clients alike;
 * like a real multi-dialect host, tell them apart by their headers.
 */
function modelsDialect(headers: Record<string, string>, query: Record<string, string>): SimulatorProtocol {
  if (headers['anthropic-version'] !== undefined) return 'anthropic-messages';
  if (headers['x-goog-api-key'] !== undefined || query.key !== undefined) return 'gemini-generate-content';
  return 'openai-chat';
}

export function routeRequest(method: string, path: string, headers: Record<string, string>, query: Record<string, string>): RouteMatch {
  if (method === 'POST') {
    switch (path) {
      case '/v1/chat/completions':
        return { protocol: 'openai-chat', endpoint: 'generate', pathModel: undefined, pathStream: false };
      case '/v1/responses':
        return { protocol: 'openai-responses', endpoint: 'generate', pathModel: undefined, pathStream: false };
      case '/v1/responses/compact':
        return { protocol: 'openai-responses', endpoint: 'compact', pathModel: undefined, pathStream: false };
      case '/v1/messages':
        return { protocol: 'anthropic-messages', endpoint: 'generate', pathModel: undefined, pathStream: false };
      case '/v1/messages/count_tokens':
        return { protocol: 'anthropic-messages', endpoint: 'count-tokens', pathModel: undefined, pathStream: false };
      case '/v1/images/generations':
        return { protocol: 'openai-chat', endpoint: 'images', pathModel: undefined, pathStream: false };
      case '/v1/images/edits':
      case '/v1/audio/speech':
      case '/v1/audio/transcriptions':
      case '/v1/audio/translations':
      case '/v1/moderations':
      case '/v1/rerank':
        return { protocol: 'openai-chat', endpoint: 'media', pathModel: undefined, pathStream: false, media: path.slice('/v1/'.length) as MediaOperation };
      case '/v2/rerank':
        return { protocol: 'openai-chat', endpoint: 'media', pathModel: undefined, pathStream: false, media: 'cohere-rerank' };
      case '/v1/embeddings':
        return { protocol: 'openai-chat', endpoint: 'embed', pathModel: undefined, pathStream: false, embedding: 'openai' };
    }
    const gemini = GEMINI_ACTION.exec(path);
    if (gemini === null) return unknownRoute;
    const action = gemini[2]!;
    if (action === 'embedContent' || action === 'batchEmbedContents') {
      return {
        protocol: 'gemini-generate-content',
        endpoint: 'embed',
        pathModel: stripModelsPrefix(gemini[1]!),
        pathStream: false,
        embedding: action === 'embedContent' ? 'gemini-single' : 'gemini-batch',
      };
    }
    return {
      protocol: 'gemini-generate-content',
      endpoint: action === 'countTokens' ? 'count-tokens' : 'generate',
      pathModel: stripModelsPrefix(gemini[1]!),
      pathStream: action === 'streamGenerateContent',
    };
  }
  if (method === 'GET' || method === 'DELETE') {
    const stored = STORED_RESPONSE.exec(path);
    if (stored !== null && (stored[2] === undefined || method === 'GET')) {
      return {
        protocol: 'openai-responses',
        endpoint: 'stored-response',
        pathModel: decodeURIComponent(stored[1]!),
        pathStream: false,
        ...(stored[2] === undefined ? {} : { inputItems: true }),
      };
    }
  }
  if (method === 'GET') {
    const geminiOnly = GEMINI_ONLY_MODELS.exec(path);
    if (geminiOnly !== null) return modelsRoute('gemini-generate-content', geminiOnly[1]);
    const shared = SHARED_MODELS.exec(path);
    if (shared !== null) return modelsRoute(modelsDialect(headers, query), shared[1]);
  }
  return unknownRoute;
}

function modelsRoute(protocol: SimulatorProtocol, id: string | undefined): RouteMatch {
  return id === undefined
    ? { protocol, endpoint: 'list-models', pathModel: undefined, pathStream: false }
    : { protocol, endpoint: 'get-model', pathModel: stripModelsPrefix(id), pathStream: false };
}
