import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { anthropicMessagesDialect } from './anthropic-messages-dialect.ts';
import { bedrockConverseDialect } from './bedrock-converse-dialect.ts';
import { bedrockInvokeDialect } from './bedrock-invoke-dialect.ts';
import { createCloudFront, type CloudOptions } from './cloud-front.ts';
import type { Dialect } from './dialect.ts';
import { answerEmbeddings } from './embeddings-dialect.ts';
import { answerImageGeneration, writeImageStream } from './images-dialect.ts';
import { answerImagenPredict, geminiImageAnswer } from './google-images-dialect.ts';
import { answerMediaRequest } from './answer-media-request.ts';
import { isForm } from './media-dialect.ts';
import { formField, parseMultipartForm } from './multipart-form.ts';
import { geminiDialect } from './gemini-dialect.ts';
import type { JsonReply } from './json-reply.ts';
import { writeJsonReply } from './json-reply.ts';
import type { ModelCatalog } from './model-catalog.ts';
import { countTokensBody, DEFAULT_MODEL_CATALOG, getModelBody, listModelsBody } from './model-catalog.ts';
import { openAiChatDialect } from './openai-chat-dialect.ts';
import { openAiResponsesDialect } from './openai-responses-dialect.ts';
import { presentedKey } from './provider-auth.ts';
import { authenticationError, errorFamily, overloadedError, providerError } from './provider-errors.ts';
import type { RecordedRequest, SimulatorProtocol } from './recorded-request.ts';
import { routeRequest } from './route-request.ts';
import type { SimulatorScript } from './simulator-script.ts';
import { planFaultedStream } from './stream-fault-plan.ts';
import { writeStream } from './stream-writer.ts';
import { planTurn } from './turn-plan.ts';
import { createReasoningSeal } from './reasoning-seal.ts';
import { checkReasoningRules } from './reasoning-rules.ts';
import { waitUnlessClosed } from './wait-unless-closed.ts';
import { createResponsesMemory } from './responses-memory.ts';
import { randomBytes } from 'node:crypto';
import { createPromptCache } from './prompt-cache.ts';
import { createCompactionIssuer } from './responses-compact-dialect.ts';

export interface ProviderSimulatorOptions {
  port?: number;
  host?: string;
  /** When set, a missing or different key gets the provider's own 401 body. */
  expectedKey?: string;
  /** Clock for `created` fields and `receivedAt`; defaults to Date.now. */
  now?: () => number;
  models?: Partial<ModelCatalog>;
  /** Keep only the newest N recorded requests, so long benchmark runs stay bounded. Default: all. */
  maxRecorded?: number;
  /** Serve Azure OpenAI, Vertex AI and Bedrock front doors with their own authentication. */
  clouds?: CloudOptions;
  /**
   * Simulate Anthropic prompt caching (`cache_control`) per presented key: a request's usage
   * reports the cached prefix it read and the one it wrote, unless its script gives the usage.
   */
  promptCache?: boolean;
}

export interface ProviderSimulator {
  readonly url: string;
  /** Every request received, oldest first (cleared in place by reset()). */
  readonly requests: RecordedRequest[];
  lastRequest(): RecordedRequest | undefined;
  /** The next request (FIFO) that passes auth on a known route gets this script. */
  enqueue(script: SimulatorScript): void;
  setDefault(script: SimulatorScript): void;
  reset(): void;
  /**
   * Open client sockets, idle keep-alive ones included. Note that undici opens a fresh idle
   * connection to the pool when a request on it is aborted, so "the gateway let go of the
   * upstream stream" is better asserted with activeRequests().
   */
  openConnections(): number;
  /** Requests whose response has neither finished nor lost its socket (hung, stalled, dripping). */
  activeRequests(): number;
  /** Vertex access tokens issued by the simulated token endpoint (`POST /oauth2/token`). */
  issuedTokens(): number;
  /** Called for every request as soon as it is recorded; returns an unsubscribe function. */
  onRequest(listener: (request: RecordedRequest) => void): () => void;
  close(): Promise<void>;
}

const DIALECTS: Record<Exclude<SimulatorProtocol, 'unknown'>, Dialect> = {
  'openai-chat': openAiChatDialect,
  'openai-responses': openAiResponsesDialect,
  'anthropic-messages': anthropicMessagesDialect,
  'gemini-generate-content': geminiDialect,
  'bedrock-converse': bedrockConverseDialect,
};

const EMPTY_SCRIPT: SimulatorScript = {};

function flattenHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function parseBody(raw: string): unknown {
  if (raw === '') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function bodyField(body: unknown, name: string): unknown {
  return body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A multipart body as its form (or its framing error, which the endpoint answers as a 400); anything else as JSON or text. */
function readRequestBody(headers: Record<string, string>, bytes: Buffer, text: string): unknown {
  if (!/^multipart\//i.test(headers['content-type'] ?? '')) return parseBody(text);
  const parsed = parseMultipartForm(headers, bytes);
  return 'form' in parsed ? parsed.form : { multipartError: parsed.error };
}

function requestIdHeaders(protocol: SimulatorProtocol, sequenceId: string): Record<string, string> {
  const family = errorFamily(protocol);
  switch (family) {
    case 'openai':
      return { 'x-request-id': `req_${sequenceId}` };
    case 'anthropic':
      return { 'request-id': `req_${sequenceId}` };
    case 'gemini':
      return {};
    default: {
      const unreachable: never = family;
      return unreachable;
    }
  }
}

export async function startProviderSimulator(options: ProviderSimulatorOptions = {}): Promise<ProviderSimulator> {
  const now = options.now ?? Date.now;
  const catalog: ModelCatalog = { ...DEFAULT_MODEL_CATALOG, ...options.models };
  const requests: RecordedRequest[] = [];
  const queue: SimulatorScript[] = [];
  const listeners = new Set<(request: RecordedRequest) => void>();
  const sockets = new Set<Socket>();
  let defaultScript = EMPTY_SCRIPT;
  const seal = createReasoningSeal();
  const responsesMemory = createResponsesMemory();
  const promptCache = options.promptCache ? createPromptCache(now) : undefined;
  // Response ids are unique across simulators, as real hosts' are (two channels, one gateway).
  const instanceTag = randomBytes(3).toString('hex');
  const cloud = createCloudFront(options.clouds ?? {}, now);
  const compaction = createCompactionIssuer();
  let selfUrl = '';
  let sequence = 0;
  let active = 0;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const rawBytes = await readBody(request);
    const rawBody = rawBytes.toString('utf8');
    const target = request.url ?? '/';
    const queryAt = target.indexOf('?');
    const path = queryAt < 0 ? target : target.slice(0, queryAt);
    const query = queryAt < 0 ? {} : Object.fromEntries(new URLSearchParams(target.slice(queryAt + 1)));
    const headers = flattenHeaders(request.headers);
    const method = request.method ?? 'GET';
    const body = readRequestBody(headers, rawBytes, rawBody);
    const cloudMatch = options.clouds ? await cloud.match({ method, path, query, headers, rawBody, body, selfUrl }) : undefined;
    const route =
      cloudMatch?.route ??
      (cloudMatch?.reply
        ? { protocol: 'unknown' as const, endpoint: 'unknown' as const, pathModel: undefined, pathStream: false }
        : routeRequest(method, path, headers, query));
    const bodyModel = isForm(body) ? formField(body, 'model') : bodyField(body, 'model');
    const recorded: RecordedRequest = {
      method,
      path,
      query,
      headers,
      body,
      rawBody,
      protocol: route.protocol,
      endpoint: route.endpoint,
      model: route.pathModel ?? (typeof bodyModel === 'string' ? bodyModel : undefined),
      stream: route.pathStream || bodyField(body, 'stream') === true,
      receivedAt: now(),
    };
    requests.push(recorded);
    if (options.maxRecorded !== undefined && requests.length > options.maxRecorded) requests.shift();
    for (const listener of listeners) listener(recorded);

    sequence += 1;
    const sequenceId = `sim${instanceTag}${String(sequence).padStart(6, '0')}`;
    const idHeaders = requestIdHeaders(route.protocol, sequenceId);
    const reply = (status: number, replyBody: unknown, extra: Record<string, string> = {}): JsonReply => ({
      status,
      body: replyBody,
      headers: { ...idHeaders, ...extra },
    });

    if (cloudMatch?.reply) {
      // The cloud's own answer: a refusal (auth, api-version, body rules) or a minted token.
      await writeJsonReply(response, { ...cloudMatch.reply, headers: { ...idHeaders, ...cloudMatch.reply.headers } }, undefined);
      return;
    }
    if (route.protocol === 'unknown' || route.endpoint === 'unknown') {
      const notFound = providerError('unknown', 404, `Unknown route: ${method} ${path}`);
      await writeJsonReply(response, reply(404, notFound.body), undefined);
      return;
    }
    if (options.expectedKey !== undefined && cloudMatch === undefined) {
      const key = presentedKey(route.protocol, headers, query);
      if (key !== options.expectedKey) {
        const denied = authenticationError(route.protocol, key);
        await writeJsonReply(response, reply(denied.status, denied.body), undefined);
        return;
      }
    }

    const presented = presentedKey(route.protocol, headers, query);
    if (route.endpoint === 'stored-response') {
      await writeJsonReply(
        response,
        { ...responsesMemory.answer(presented, method, route.pathModel ?? '', route.inputItems === true), headers: idHeaders },
        undefined,
      );
      return;
    }
    // Like the real APIs, reasoning state that does not check out is refused before any work.
    const responsesGenerate = route.protocol === 'openai-responses' && route.endpoint === 'generate';
    const refused =
      checkReasoningRules(recorded, seal) ??
      (responsesGenerate
        ? (compaction.check(body) ?? responsesMemory.checkPrevious(presented, body) ?? responsesMemory.checkReferences(presented, body))
        : undefined);
    if (refused !== undefined) {
      await writeJsonReply(response, reply(refused.status, refused.body, refused.headers), undefined);
      return;
    }

    const script = queue.shift() ?? defaultScript;
    if (!(await waitUnlessClosed(response, script.delayMs ?? 0))) return;
    const fault = script.fault;
    if (fault?.type === 'hang') return; // Never answer; the socket closes when the client gives up.
    if (fault?.type === 'reset' && (fault.afterChunks === undefined || fault.afterChunks <= 0)) {
      response.socket?.resetAndDestroy();
      return;
    }
    if (fault?.type === 'status') {
      // Bedrock answers InvokeModel failures in its own shape, whatever the model's body.
      const errorProtocol = route.bedrockInvoke ? 'bedrock-converse' : route.protocol;
      const failed = providerError(errorProtocol, fault.status, fault.message);
      const retry: Record<string, string> = {
        ...(fault.retryAfter === undefined ? {} : { 'retry-after': String(fault.retryAfter) }),
        ...failed.headers,
      };
      await writeJsonReply(response, reply(failed.status, failed.body, retry), undefined);
      return;
    }
    if (fault?.type === 'error-mid-stream' && !recorded.stream) {
      const overloaded = overloadedError(route.bedrockInvoke ? 'bedrock-converse' : route.protocol);
      await writeJsonReply(response, reply(overloaded.status, overloaded.body, overloaded.headers), undefined);
      return;
    }

    const model = recorded.model ?? 'unknown-model';
    switch (route.endpoint) {
      case 'list-models':
        await writeJsonReply(response, reply(200, listModelsBody(catalog, route.protocol)), fault);
        return;
      case 'get-model': {
        const found = getModelBody(catalog, route.protocol, model);
        const missing = providerError(route.protocol, 404, `Model not found: ${model}`);
        await writeJsonReply(response, found === undefined ? reply(404, missing.body) : reply(200, found), fault);
        return;
      }
      case 'count-tokens': {
        const tokens = script.usage?.input ?? Math.max(1, Math.ceil(rawBody.length / 4));
        await writeJsonReply(response, reply(200, countTokensBody(route.protocol, tokens)), fault);
        return;
      }
      case 'images': {
        const answer = answerImageGeneration(model, body);
        const streamed = bodyField(body, 'stream') === true;
        if (streamed && answer.status === 200) {
          await writeImageStream(response, answer, 'image_generation', Number(bodyField(body, 'partial_images') ?? 0), idHeaders);
          return;
        }
        await writeJsonReply(response, reply(answer.status, answer.body, answer.headers), fault);
        return;
      }
      case 'imagen': {
        const answer = answerImagenPredict(model, body);
        await writeJsonReply(response, reply(answer.status, answer.body, answer.headers), fault);
        return;
      }
      case 'compact': {
        const answer = compaction.answer(body, script, { responseId: `resp_${sequenceId}`, createdSeconds: Math.floor(now() / 1000) });
        await writeJsonReply(response, reply(answer.status, answer.body, answer.headers), fault);
        return;
      }
      case 'media': {
        const answer = await answerMediaRequest(route.media!, model, body, response, idHeaders);
        if (answer !== undefined) await writeJsonReply(response, reply(answer.status, answer.body, answer.headers), fault);
        return;
      }
      case 'embed': {
        const answer = answerEmbeddings(route.embedding ?? 'openai', model, body, script);
        await writeJsonReply(response, reply(answer.status, answer.body, answer.headers), fault);
        return;
      }
      case 'generate': {
        if (route.protocol === 'gemini-generate-content') {
          const image = geminiImageAnswer(model, body);
          if (image !== undefined) {
            await writeJsonReply(response, reply(image.status, image.body, image.headers), fault);
            return;
          }
        }
        const dialect = route.bedrockInvoke ? bedrockInvokeDialect(DIALECTS[route.protocol]) : DIALECTS[route.protocol];
        const createdSeconds = Math.floor(now() / 1000);
        const plan = planTurn(script, recorded, { model, sequenceId, createdSeconds, seal });
        const cached = route.protocol === 'anthropic-messages' ? promptCache?.use(presented ?? '', body) : undefined;
        if (cached) {
          recorded.promptCache = cached;
          if (script.usage === undefined) {
            const cacheRead = Math.min(cached.read, plan.usage.input);
            plan.usage = { ...plan.usage, cacheRead, cacheWrite: Math.min(cached.write, plan.usage.input - cacheRead) };
          }
        }
        if (route.protocol === 'openai-responses') {
          const background = backgroundReply(body, dialect.renderBody(plan) as Record<string, unknown>);
          if (background !== undefined) {
            // Background mode: the create answers at once, queued; the answer is kept for a later GET.
            if (background.status === 200) responsesMemory.remember(presented, body, background.kept);
            await writeJsonReply(response, reply(background.status, background.body), fault);
            return;
          }
          responsesMemory.remember(presented, body, dialect.renderBody(plan) as Record<string, unknown>);
        }
        if (!recorded.stream) {
          await writeJsonReply(response, reply(200, dialect.renderBody(plan)), fault);
          return;
        }
        const faulted = planFaultedStream(dialect, plan, fault);
        await writeStream(response, { ...faulted, headers: idHeaders, chunkDelayMs: script.chunkDelayMs ?? 0 });
        return;
      }
      default: {
        const unreachable: never = route.endpoint;
        return unreachable;
      }
    }
  }

  const server = createServer((request, response) => {
    active += 1;
    response.once('close', () => {
      active -= 1;
    });
    handle(request, response).catch((error: unknown) => {
      // A client that vanished mid-request is routine; anything else is a simulator bug worth seeing.
      if (!response.destroyed) {
        console.error('provider simulator failed to answer:', error);
        response.destroy();
      }
    });
  });
  server.keepAliveTimeout = 5_000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  selfUrl = `http://${host}:${address.port}`;

  return {
    url: `http://${host}:${address.port}`,
    requests,
    lastRequest: () => requests.at(-1),
    enqueue: (script) => {
      queue.push(script);
    },
    setDefault: (script) => {
      defaultScript = script;
    },
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      defaultScript = EMPTY_SCRIPT;
    },
    openConnections: () => sockets.size,
    issuedTokens: () => cloud.issuedTokens(),
    activeRequests: () => active,
    onRequest: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}

/**
 * OpenAI Responses background mode (`background: true`): the create returns the response queued,
 * with no output and no usage, and the whole answer (usage included) is fetched later with
 * `GET /v1/responses/{id}`. Like OpenAI, it needs `store` on. Undefined: not a background request.
 */
function backgroundReply(
  body: unknown,
  completed: Record<string, unknown>,
): { status: number; body: Record<string, unknown>; kept: Record<string, unknown> } | undefined {
  if (typeof body !== 'object' || body === null || (body as Record<string, unknown>).background !== true) return undefined;
  const kept = { ...completed, background: true };
  if ((body as Record<string, unknown>).store === false) {
    const refusal = { error: { message: 'Background mode requires store=true.', type: 'invalid_request_error', param: 'store', code: null } };
    return { status: 400, body: refusal, kept };
  }
  return { status: 200, body: { ...kept, status: 'queued', output: [], usage: null }, kept };
}
