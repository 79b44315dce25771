import { encodeReasoningDetail } from './openai-chat-reasoning-details.ts';
import { customToolInput } from '../openai-responses/custom-tool-calls.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import type { Usage } from '../../core/usage.ts';
import { emptyUsage } from '../shared/canonical-usage.ts';
import { formatSseJson } from '../sse/format-sse-message.ts';
import type { StreamEncoder, StreamEncoderOptions } from '../protocol-codec.ts';
import { toOpenAiUsage } from './convert-openai-usage.ts';
import { openAiErrorType } from './encode-openai-error.ts';
import { ensureIdPrefix } from './ensure-id-prefix.ts';
import { toOpenAiFinishReason, type OpenAiFinishReason } from './map-openai-finish-reason.ts';

type Delta = Record<string, unknown>;
type EventOf<T extends StreamEvent['type']> = Extract<StreamEvent, { type: T }>;

/**
 * Canonical events → Chat Completions SSE, shaped for the openai SDK's accumulator: the
 * first delta carries the role, every chunk repeats id/created/model, tool calls keep their
 * index, and the choice always ends with a finish reason before the optional usage chunk.
 */
export function createOpenAiChatStreamEncoder(context: RuntimeContext, options: StreamEncoderOptions = {}): StreamEncoder {
  return new OpenAiChatStreamEncoder(context, options);
}

/** One stream's state: its identity, the tool calls' indexes, the usage seen, whether an error ended it. */
class OpenAiChatStreamEncoder implements StreamEncoder {
  #id = '';
  #created = 0;
  #model = '';
  #started = false;
  #failed = false;
  #usage: Usage | undefined;
  #reasoningDetails = 0;
  readonly #includeUsage: boolean;
  readonly #toolIndexes = new Map<string, number>();
  readonly #customTools: Set<string>;
  /** Custom tool calls being streamed: their JSON arguments, unwrapped to the raw input at the end. */
  readonly #customArguments = new Map<string, string>();

  constructor(
    private readonly context: RuntimeContext,
    private readonly options: StreamEncoderOptions,
  ) {
    this.#includeUsage = options.includeUsage === true;
    this.#customTools = new Set(options.customTools);
  }

  push(event: StreamEvent): string {
    if (this.#failed) return '';
    switch (event.type) {
      case 'response-start':
        return this.#responseStart(event);
      case 'text-start':
      case 'text-end':
      case 'reasoning-start':
        return this.#start();
      case 'text-delta':
        return event.delta === '' ? this.#start() : this.#start() + this.#chunk({ content: event.delta });
      case 'reasoning-delta':
        return event.delta === '' ? this.#start() : this.#start() + this.#chunk({ reasoning_content: event.delta });
      case 'reasoning-end':
        return this.#reasoningEnd(event);
      case 'tool-call-start':
        return this.#toolCallStart(event);
      case 'tool-call-delta':
        return this.#toolCallDelta(event);
      case 'tool-call-end':
        return this.#toolCallEnd(event);
      case 'usage':
        this.#usage = event.usage;
        return this.#start();
      case 'response-end':
        return this.#responseEnd(event);
      case 'error':
        return this.#error(event);
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  }

  end(): string {
    return this.#failed ? '' : 'data: [DONE]\n\n';
  }

  #chunk(delta: Delta, finishReason: OpenAiFinishReason | null = null): string {
    const payload: Record<string, unknown> = {
      id: this.#id,
      object: 'chat.completion.chunk',
      created: this.#created,
      model: this.#model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    };
    if (this.#includeUsage) payload.usage = null;
    return formatSseJson(payload);
  }

  /** A stream whose first event is not response-start still needs an identity. */
  #start(): string {
    if (this.#started) return '';
    this.#started = true;
    if (this.#id === '') this.#id = this.context.generateId('chatcmpl-');
    if (this.#created === 0) this.#created = Math.floor(this.context.now() / 1000);
    return this.#chunk({ role: 'assistant', content: '' });
  }

  #responseStart(event: EventOf<'response-start'>): string {
    if (this.#started) return '';
    this.#id = ensureIdPrefix(event.id, 'chatcmpl-', this.context);
    this.#created = Math.floor(event.createdAt / 1000);
    this.#model = event.model;
    return this.#start();
  }

  #reasoningEnd(event: EventOf<'reasoning-end'>): string {
    const detail = encodeReasoningDetail(
      {
        type: 'reasoning',
        text: '',
        ...(event.signature === undefined ? {} : { signature: event.signature }),
        ...(event.providerMetadata ? { providerMetadata: event.providerMetadata } : {}),
      },
      this.#reasoningDetails++,
    );
    return detail ? this.#start() + this.#chunk({ reasoning_details: [detail] }) : this.#start();
  }

  #toolCallStart(event: EventOf<'tool-call-start'>): string {
    const index = this.#toolIndexes.size;
    this.#toolIndexes.set(event.id, index);
    if (this.#customTools.has(event.name)) {
      // The upstream streams `{"input": …}` JSON; the raw input goes out whole at the call's end.
      this.#customArguments.set(event.id, '');
      return this.#start() + this.#chunk({ tool_calls: [{ index, id: event.callId, type: 'custom', custom: { name: event.name, input: '' } }] });
    }
    return this.#start() + this.#chunk({ tool_calls: [{ index, id: event.callId, type: 'function', function: { name: event.name, arguments: '' } }] });
  }

  #toolCallDelta(event: EventOf<'tool-call-delta'>): string {
    const index = this.#toolIndexes.get(event.id);
    if (index === undefined || event.argumentsDelta === '') return this.#start();
    const buffered = this.#customArguments.get(event.id);
    if (buffered !== undefined) {
      this.#customArguments.set(event.id, buffered + event.argumentsDelta);
      return this.#start();
    }
    return this.#start() + this.#chunk({ tool_calls: [{ index, function: { arguments: event.argumentsDelta } }] });
  }

  #toolCallEnd(event: EventOf<'tool-call-end'>): string {
    const buffered = this.#customArguments.get(event.id);
    const index = this.#toolIndexes.get(event.id);
    if (buffered === undefined || index === undefined) return this.#start();
    this.#customArguments.delete(event.id);
    const input = customToolInput(buffered);
    return input === '' ? this.#start() : this.#start() + this.#chunk({ tool_calls: [{ index, custom: { input } }] });
  }

  #responseEnd(event: EventOf<'response-end'>): string {
    const finalUsage = event.usage ?? this.#usage ?? emptyUsage();
    const out = this.#start() + this.#chunk({}, toOpenAiFinishReason(event.finishReason.unified));
    if (!this.#includeUsage) return out;
    const usage = this.options.priceUsage ? { ...toOpenAiUsage(finalUsage), cost: this.options.priceUsage(finalUsage, undefined) } : toOpenAiUsage(finalUsage);
    return out + formatSseJson({ id: this.#id, object: 'chat.completion.chunk', created: this.#created, model: this.#model, choices: [], usage });
  }

  /** The HTTP status is already 200, so the error travels in the stream and ends it. */
  #error(event: EventOf<'error'>): string {
    this.#failed = true;
    return formatSseJson({
      error: {
        message: event.error.message,
        type: openAiErrorType(event.error.status),
        code: event.error.code,
        param: null,
      },
    });
  }
}
