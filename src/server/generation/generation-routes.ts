import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CredentialStyle } from '../../access/extract-api-key.ts';
import { authorizeModel } from '../../access/authorize-model.ts';
import { KeyRefusedError } from '../../access/key-refused-error.ts';
import { recordKeyRefusal } from '../../ledger/record-generation-usage.ts';
import { estimateInputTokens } from '../../billing/estimate-tokens.ts';
import { GatewayError, invalidRequest } from '../../core/gateway-error.ts';
import { getCodec } from '../../protocols/codec-registry.ts';
import { markPipelineRequest } from '../observability/access-log.ts';
import type { AppDeps } from '../app-deps.ts';
import { explainRouteMiss } from './misconfigured-client-hint.ts';
import { renderError } from '../render-error.ts';
import type { RefusedAuthMonitor } from './refused-auth-monitor.ts';
import { authenticateRequest, clientIpOf } from '../authenticate-request.ts';
import { handleEmbeddings } from './handle-embeddings.ts';
import { registerMediaRoutes } from './media-routes.ts';
import { handleMediaJson } from './handle-media.ts';
import { runGeminiImages } from '../../generation/run-gemini-images.ts';
import { asksForImages } from '../../protocols/gemini-generate-content/index.ts';
import { handleCompaction, handleCompactionTurn, handleGeneration, handleThresholdTurn } from './handle-generation.ts';
import { compactionThreshold } from '../../generation/compact-on-threshold.ts';
import { hasCompactionTrigger } from '../../responses/compaction-turn.ts';
import { generationRoute, type GenerationRoute } from '../../generation/generation-request.ts';
import { isGeminiMethod, parseGeminiModelPath } from './parse-gemini-model-path.ts';
import { isRecord } from '../../protocols/shared/is-record.ts';

const WARNINGS_HEADER = 'x-switchyard-warnings';
/** The client's base address ends in `/v1` where it should be the root: the answer says so. */
export const DOUBLED_V1_WARNING = 'compatibility:base_url_v1';

/**
 * The generation endpoints of every client protocol, mounted at the root (`prefix` = '') and
 * again under the alternative-client prefix with the same handlers. Each checks the key from
 * the headers alone, in `onRequest`, before Fastify reads the body: a request without a valid
 * key is answered at once and its body is never buffered or parsed (Node discards it).
 */
export function registerGenerationRoutes(app: FastifyInstance, deps: AppDeps, prefix: string, surface: string | null, refusedAuth: RefusedAuthMonitor): void {
  // Every refusal is counted; one of a known key (disabled, expired, fenced) is also written to
  // the usage log under that key.
  const authenticateOrNote = (request: FastifyRequest, style: CredentialStyle, protocol: string, model: string | null = null): void => {
    try {
      request.caller = authenticateRequest(deps, request, style);
    } catch (error) {
      if (error instanceof GatewayError) {
        const clientIp = clientIpOf(deps, request);
        refusedAuth.note(error, { protocol, clientIp, path: request.url.split('?')[0] ?? '' });
        if (error instanceof KeyRefusedError) {
          // The usage row brings the request's access line with it (MeteredUsageWriter).
          markPipelineRequest(request);
          recordKeyRefusal(deps.usageWriter, error, { requestId: request.id, clientProtocol: protocol, surface, model, at: deps.runtime.now(), clientIp });
        }
      }
      throw error;
    }
  };
  // A callback hook, not an async one: every generation request runs it, and an async hook costs
  // a promise and a microtask turn per request. A route reached through a mistaken address that
  // is still served (`warning`) says so on every answer, errors included: set on the raw
  // response, the header survives whichever writer answers (the relay adds it to its own list).
  const authenticateFirst = (style: CredentialStyle, protocol: string, warning?: string) => ({
    onRequest: (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void => {
      if (warning !== undefined) reply.raw.setHeader(WARNINGS_HEADER, warning);
      try {
        authenticateOrNote(request, style, protocol);
      } catch (error) {
        done(error as Error);
        return;
      }
      done();
    },
  });
  // Each route's description is built once, not per request.
  const chatRoute = generationRoute('openai-chat', surface);
  const responsesRoute = generationRoute('openai-responses', surface);
  const messagesRoute = generationRoute('anthropic-messages', surface);
  const geminiRoute = generationRoute('gemini-generate-content', surface);
  app.post(
    `${prefix}/v1/chat/completions`,
    { config: { protocol: 'openai-chat' }, ...authenticateFirst(chatRoute.credentials, 'openai-chat') },
    (request, reply) => handleGeneration(deps, chatRoute, request, reply),
  );
  app.post(
    `${prefix}/v1/responses`,
    { config: { protocol: 'openai-responses' }, ...authenticateFirst(responsesRoute.credentials, 'openai-responses') },
    (request, reply) => {
      if (isRecord(request.body) && hasCompactionTrigger(request.body)) return handleCompactionTurn(deps, responsesRoute, request, reply);
      const threshold = compactionThreshold(request.body);
      return threshold === undefined
        ? handleGeneration(deps, responsesRoute, request, reply)
        : handleThresholdTurn(deps, responsesRoute, request, reply, threshold);
    },
  );
  app.post(
    `${prefix}/v1/responses/compact`,
    { config: { protocol: 'openai-responses' }, ...authenticateFirst(responsesRoute.credentials, 'openai-responses') },
    (request, reply) => handleCompaction(deps, responsesRoute, request, reply),
  );
  app.post(
    `${prefix}/v1/messages`,
    { config: { protocol: 'anthropic-messages' }, ...authenticateFirst(messagesRoute.credentials, 'anthropic-messages') },
    (request, reply) => handleGeneration(deps, messagesRoute, request, reply),
  );
  // Claude Code (and the Anthropic SDK) given `<root>/v1` as its base calls `/v1/v1/messages`; a
  // 404 there shows as "There's an issue with the selected model", which hides the cause. Served,
  // with a warning naming the fix, like the right address.
  const doubledMessagesRoute: GenerationRoute = { ...messagesRoute, warnings: [DOUBLED_V1_WARNING] };
  app.post(
    `${prefix}/v1/v1/messages`,
    { config: { protocol: 'anthropic-messages' }, ...authenticateFirst(messagesRoute.credentials, 'anthropic-messages', DOUBLED_V1_WARNING) },
    (request, reply) => handleGeneration(deps, doubledMessagesRoute, request, reply),
  );
  app.post(`${prefix}/v1/embeddings`, { config: { protocol: 'openai-chat' }, ...authenticateFirst('bearer', 'openai-embeddings') }, (request, reply) =>
    handleEmbeddings(deps, 'openai-embeddings', surface, request, reply),
  );
  registerMediaRoutes(app, deps, prefix, surface, (protocol) => authenticateFirst('bearer', protocol));
  const countTokens = async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = request.caller ?? authenticateRequest(deps, request, messagesRoute.credentials);
    const decoded = getCodec('anthropic-messages').decodeRequest({ body: request.body }, deps.runtime).value;
    authorizeModel(deps.snapshot.current, caller, decoded.model, surface, { revealOtherGroups: deps.settings.revealOtherGroupModels === true });
    return reply.send({ input_tokens: estimateInputTokens(decoded) });
  };
  app.post(
    `${prefix}/v1/messages/count_tokens`,
    { config: { protocol: 'anthropic-messages' }, ...authenticateFirst(messagesRoute.credentials, 'anthropic-messages') },
    countTokens,
  );
  app.post(
    `${prefix}/v1/v1/messages/count_tokens`,
    { config: { protocol: 'anthropic-messages' }, ...authenticateFirst(messagesRoute.credentials, 'anthropic-messages', DOUBLED_V1_WARNING) },
    countTokens,
  );

  // Gemini: `/v1beta/models/{model}:{method}`, and the same under `/v1/` for @google/genai ≥ 3.
  // A path that names no generation method is answered from the path alone (before the key
  // and the body): it is a misconfigured client, and the answer teaches the right address.
  const geminiPathFirst = async (request: FastifyRequest, reply: FastifyReply) => {
    const { model, method } = parseGeminiModelPath((request.params as { '*': string })['*']);
    if (method === undefined) {
      // No `:method` at all: most likely an OpenAI client given <root>/v1/models as its base.
      const miss = explainRouteMiss(request.method, request.url, deps.settings.altPrefix, request.headers);
      return renderError(reply, miss.protocol, miss.error, request.id);
    }
    if (!isGeminiMethod(method)) {
      throw new GatewayError(
        'route_not_found',
        `Unknown Gemini method "${method ?? ''}" on model "${model}"; this gateway serves :generateContent, :streamGenerateContent, :countTokens, :embedContent and :batchEmbedContents.`,
      );
    }
    authenticateOrNote(request, geminiRoute.credentials, 'gemini-generate-content', model);
  };
  for (const version of ['v1beta', 'v1alpha', 'v1']) {
    app.post(`${prefix}/${version}/models/*`, { config: { protocol: 'gemini-generate-content' }, onRequest: geminiPathFirst }, async (request, reply) => {
      const { model, method } = parseGeminiModelPath((request.params as { '*': string })['*']);
      if (method === 'embedContent' || method === 'batchEmbedContents') {
        return handleEmbeddings(deps, method === 'embedContent' ? 'gemini-embed-content' : 'gemini-batch-embed-contents', surface, request, reply, model);
      }
      if (method === 'countTokens') {
        const caller = request.caller ?? authenticateRequest(deps, request, geminiRoute.credentials);
        authorizeModel(deps.snapshot.current, caller, model, surface, { revealOtherGroups: deps.settings.revealOtherGroupModels === true });
        const body = unwrapCountTokensBody(request.body);
        const decoded = getCodec('gemini-generate-content').decodeRequest({ body, pathModel: model }, deps.runtime).value;
        return reply.send({ totalTokens: estimateInputTokens(decoded) });
      }
      if (method === 'generateContent' && asksForImages(request.body)) {
        // Image output: through the media pipeline, so an OpenAI or Imagen image channel can answer it too.
        return handleMediaJson(deps, surface, request, reply, (call, body) => runGeminiImages(deps, call, body, model));
      }
      const stream = method === 'streamGenerateContent';
      const alt = (request.query as Record<string, unknown>).alt;
      return handleGeneration(deps, geminiRoute, request, reply, {
        pathModel: model,
        pathStream: stream,
        encoderOptions: { format: stream && alt !== 'sse' ? 'json-array' : 'sse' },
      });
    });
  }
}

/** countTokens takes `{contents}` or `{generateContentRequest: {...}}`. */
function unwrapCountTokensBody(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) throw invalidRequest('The request body must be a JSON object.');
  const inner = (body as { generateContentRequest?: unknown }).generateContentRequest;
  return inner ?? body;
}
