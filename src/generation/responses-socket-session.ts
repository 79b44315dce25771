import { finished } from 'node:stream/promises';
import type { CallerCredentials } from '../access/authenticate-caller.ts';
import { authenticateCaller } from '../access/authenticate-caller.ts';
import { authorizeModel } from '../access/authorize-model.ts';
import { GatewayError, invalidRequest } from '../core/gateway-error.ts';
import { encodeErrorReply } from '../protocols/encode-error-reply.ts';
import { ClientWriter } from '../relay/client-writer.ts';
import { inputItems } from '../responses/replay-items.ts';
import { SocketResponseChain } from '../responses/socket-response-chain.ts';
import { compactionTurnStream, hasCompactionTrigger, withoutCompactionTrigger } from '../responses/compaction-turn.ts';
import { runCompaction } from './run-compaction.ts';
import type { ClientConnection, GenerationRequest, GenerationRoute } from './generation-request.ts';
import { compactionThreshold, compactOnThreshold } from './compact-on-threshold.ts';
import { runGeneration, type GenerationDeps } from './run-generation.ts';
import { errorEvent, SocketReplyStream, type MessageSink } from './socket-reply-stream.ts';

export interface ResponsesSocketOptions {
  route: GenerationRoute;
  /** The handshake's headers, address and path: every turn is authenticated from them afresh. */
  credentials: CallerCredentials;
  /** The socket's in-memory chain holds at most this much (RESPONSES_MAX_TURN_BYTES). */
  maxChainBytes: number;
}

/**
 * One Responses WebSocket (OpenAI's WebSocket mode), framework-free: the client sends
 * `response.create` messages, one response at a time; each is one generation through
 * `runGeneration` (authentication, admission, routing, failover, hedging, the usage row and the
 * charge), answered with the events an HTTP stream carries. The socket keeps its last response
 * in memory, so `previous_response_id` continues a chain even with `store: false`.
 * Codex opens each socket with `generate: false`: that warm-up is answered here, with no upstream
 * call and no charge, and its input becomes the chain the next turn continues.
 */
export class ResponsesSocketSession {
  readonly #deps: GenerationDeps;
  readonly #sink: MessageSink;
  readonly #options: ResponsesSocketOptions;
  readonly #chain: SocketResponseChain;
  #current: SocketReplyStream | undefined;
  #closed = false;
  /** Turns run, for the socket's own log line. */
  turns = 0;

  constructor(deps: GenerationDeps, sink: MessageSink, options: ResponsesSocketOptions) {
    this.#deps = deps;
    this.#sink = sink;
    this.#options = options;
    this.#chain = new SocketResponseChain(options.maxChainBytes);
  }

  /** Whether a response is being streamed (the socket's idle timer does not run meanwhile). */
  get busy(): boolean {
    return this.#current !== undefined;
  }

  /** A text message from the client. Returns once its response ended (the socket reads on meanwhile). */
  async receive(text: string): Promise<void> {
    let message: Record<string, unknown>;
    try {
      message = parseClientEvent(text);
      if (this.#current !== undefined) {
        throw new GatewayError(
          'invalid_request',
          'A response is already in progress on this socket; send the next response.create after its response.completed (or open another socket for parallel work).',
        );
      }
    } catch (error) {
      this.#sendError(error instanceof GatewayError ? error : invalidRequest(String(error)), this.#deps.runtime.generateId('req_'), undefined);
      return;
    }
    const { type: _type, stream_id: streamId, generate, ...fields } = message;
    const tag = typeof streamId === 'string' ? streamId : undefined;
    const requestId = this.#deps.runtime.generateId('req_');
    // Over a socket every response streams; `background` has no meaning there (as on OpenAI).
    let body: Record<string, unknown> = { ...fields, stream: true };
    if (body.background === true) {
      this.#sendError(
        invalidRequest('background responses are not supported over WebSocket; send them with POST /v1/responses.', 'background'),
        requestId,
        tag,
      );
      return;
    }
    delete body.background;
    body = this.#chain.expand(body) ?? body;
    if (generate === false) {
      this.#warmUp(body, requestId, tag);
      return;
    }
    if (hasCompactionTrigger(body)) {
      await this.#compact(withoutCompactionTrigger(body), requestId, tag);
      return;
    }
    await this.#run(body, requestId, tag);
  }

  /** The socket closed: a response still streaming is cut (its upstream aborted, what was delivered billed). */
  close(): void {
    this.#closed = true;
    this.#current?.destroy();
  }

  async #run(asked: Record<string, unknown>, requestId: string, tag: string | undefined): Promise<void> {
    const keepsChain = asked.store === false;
    let completed: Record<string, unknown> | undefined;
    const reply = new SocketReplyStream(this.#sink, {
      streamId: tag,
      onEvent: keepsChain
        ? (type, data) => {
            if (type === 'response.completed') completed = (JSON.parse(data) as { response?: Record<string, unknown> }).response;
          }
        : undefined,
    });
    this.#current = reply;
    const request: GenerationRequest = { requestId, route: this.#options.route, body: asked, credentials: this.#options.credentials, transport: 'websocket' };
    const threshold = compactionThreshold(asked);
    const outcome = threshold === undefined ? undefined : await compactOnThreshold(this.#deps, request, threshold);
    if (outcome?.kind === 'failed') {
      reply.writeHead(outcome.reply.status, {});
      reply.end(JSON.stringify(outcome.reply.body));
      await this.#endTurn(reply);
      return;
    }
    if (outcome?.kind === 'continue') request.body = outcome.body;
    if (outcome?.kind === 'continue' && outcome.item) request.encoderOptions = { leadingItems: [outcome.item] };
    const body = request.body as Record<string, unknown>;
    const input = inputItems(body.input);
    let takenOver = false;
    const connection: ClientConnection = {
      takeOver: (onClientGone) => {
        takenOver = true;
        return new ClientWriter(reply, this.#deps.runtime.now, onClientGone);
      },
    };
    this.turns += 1;
    try {
      await runGeneration(this.#deps, request, connection);
    } catch (thrown) {
      // Refused before the reply was taken over (key, model, admission): the pipeline recorded it.
      if (!takenOver) this.#refuse(reply, thrown, requestId);
    }
    await this.#endTurn(reply);
    if (!keepsChain) return;
    const id = completed?.id;
    if (typeof id === 'string') this.#chain.remember(id, input, completed ?? null);
    else this.#chain.forget();
  }

  /**
   * `generate: false`: the request is checked as a turn would be (key, model) and answered with
   * an empty completed response whose id the next turn can continue. Nothing goes upstream and
   * nothing is charged or logged as a generation.
   */
  #warmUp(body: Record<string, unknown>, requestId: string, tag: string | undefined): void {
    const model = body.model;
    try {
      if (typeof model !== 'string' || model === '') {
        throw invalidRequest('The request body needs a "model" field naming one of the models your key can use (see GET /v1/models).', 'model');
      }
      const snapshot = this.#deps.snapshot.current;
      const caller = authenticateCaller(snapshot, this.#deps.runtime.now(), this.#options.credentials, this.#options.route.credentials);
      authorizeModel(snapshot, caller, model, this.#options.route.surface, { revealOtherGroups: this.#deps.settings?.revealOtherGroupModels === true });
    } catch (error) {
      this.#sendError(error instanceof GatewayError ? error : invalidRequest(String(error)), requestId, tag);
      return;
    }
    const id = this.#deps.runtime.generateId('resp_');
    const response = {
      id,
      object: 'response',
      created_at: Math.floor(this.#deps.runtime.now() / 1000),
      status: 'completed',
      error: null,
      incomplete_details: null,
      instructions: body.instructions ?? null,
      model,
      output: [],
      parallel_tool_calls: body.parallel_tool_calls ?? true,
      previous_response_id: null,
      store: body.store !== false,
      tools: Array.isArray(body.tools) ? body.tools : [],
      usage: { input_tokens: 0, input_tokens_details: { cached_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 },
    };
    const stream = new SocketReplyStream(this.#sink, { streamId: tag });
    stream.end(
      `event: response.created\ndata: ${JSON.stringify({ type: 'response.created', sequence_number: 0, response: { ...response, status: 'in_progress', usage: null } })}\n\n` +
        `event: response.completed\ndata: ${JSON.stringify({ type: 'response.completed', sequence_number: 1, response })}\n\n`,
    );
    this.#chain.remember(id, inputItems(body.input), null);
  }

  /** A compaction turn: the summary as one sealed compaction item, the only output (see compaction-turn.ts). */
  async #compact(body: Record<string, unknown>, requestId: string, tag: string | undefined): Promise<void> {
    const reply = new SocketReplyStream(this.#sink, { streamId: tag });
    this.#current = reply;
    try {
      const caller = authenticateCaller(this.#deps.snapshot.current, this.#deps.runtime.now(), this.#options.credentials, this.#options.route.credentials);
      this.turns += 1;
      const answer = await runCompaction(
        this.#deps,
        { requestId, route: this.#options.route, body, credentials: this.#options.credentials, caller, transport: 'websocket' },
        true,
      );
      const compacted = answer.body as { id: string; created_at: number; output: Array<Record<string, unknown>>; usage: unknown };
      const item = answer.status === 200 ? compacted.output.at(-1) : undefined;
      if (item === undefined) {
        reply.writeHead(answer.status, {});
        reply.end(JSON.stringify(answer.body));
      } else {
        reply.end(compactionTurnStream({ id: compacted.id, created_at: compacted.created_at, model: body.model, item, usage: compacted.usage }));
        if (body.store === false) this.#chain.remember(compacted.id, inputItems(body.input), { output: [item] });
      }
    } catch (error) {
      this.#refuse(reply, error, requestId);
    }
    await this.#endTurn(reply);
  }

  /** Answers the turn with the error reply a refused HTTP request would get (one `error` event). */
  #refuse(reply: SocketReplyStream, thrown: unknown, requestId: string): void {
    const error =
      thrown instanceof GatewayError
        ? thrown
        : new GatewayError('internal_error', 'The gateway failed unexpectedly; the failure is logged under this request id.');
    const { status, body } = encodeErrorReply(this.#options.route.protocol, error, requestId);
    reply.writeHead(status, {});
    reply.end(body);
  }

  /** Waits until the turn's last message left (or the client cut it); the socket is free again. */
  async #endTurn(reply: SocketReplyStream): Promise<void> {
    try {
      await finished(reply);
    } catch {
      // Cut by the client: nothing more to send.
    }
    this.#current = undefined;
  }

  #sendError(error: GatewayError, requestId: string, tag: string | undefined): void {
    if (this.#closed) return;
    const { status, body } = encodeErrorReply(this.#options.route.protocol, error, requestId);
    const event = errorEvent(status, body);
    this.#sink.send(tag === undefined ? event : `{"stream_id":${JSON.stringify(tag)},${event.slice(1)}`, () => undefined);
  }
}

function parseClientEvent(text: string): Record<string, unknown> {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    throw invalidRequest('Each WebSocket message must be one JSON object (a response.create event).');
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw invalidRequest('Each WebSocket message must be one JSON object (a response.create event).');
  }
  const type = (message as { type?: unknown }).type;
  if (type !== 'response.create') {
    throw invalidRequest(`Unsupported WebSocket event type ${JSON.stringify(type ?? null)}; this gateway accepts "response.create".`, 'type');
  }
  return message as Record<string, unknown>;
}
