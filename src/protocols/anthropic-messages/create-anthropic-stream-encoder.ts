import type { GatewayError } from '../../core/gateway-error.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import { uncachedInputTokens, type Usage } from '../../core/usage.ts';
import { formatSseJson } from '../../sse/format-sse-message.ts';
import type { StreamEncoder } from '../protocol-codec.ts';
import { anthropicErrorType, isAnthropicErrorType } from './anthropic-error-type.ts';
import type { AnthropicResponseBlock } from './anthropic-wire-types.ts';
import { encodeAnthropicUsage } from './convert-anthropic-usage.ts';
import { anthropicMessageId } from './encode-anthropic-response.ts';
import { encodeAnthropicStopReason } from './map-anthropic-stop-reason.ts';
import { sanitizeAnthropicToolId } from './sanitize-anthropic-tool-id.ts';

type BlockKind = 'text' | 'thinking' | 'tool_use';

interface OpenBlock {
  /** The canonical block id. */
  id: string;
  index: number;
  kind: BlockKind;
}

/**
 * Canonical events → Anthropic SSE exactly as `@anthropic-ai/sdk`'s MessageStream and Claude
 * Code accumulate it: `message_start` (then `ping`), blocks with indices 0..n-1 one at a time,
 * and a single `message_delta` + `message_stop` at `response-end`, because usage from OpenAI
 * upstreams arrives only after the finish reason.
 */
export function createAnthropicStreamEncoder(context: RuntimeContext): StreamEncoder {
  let pendingStart: { id: string; model: string } | undefined;
  let started = false;
  let finished = false;
  let usage: Usage | undefined;
  let nextIndex = 0;
  let open: OpenBlock | undefined;
  /** Reasoning whose block is not written yet: redacted thinking is only known at its end. */
  let pendingReasoning: string | undefined;
  let hasToolCalls = false;

  const event = (name: string, payload: Record<string, unknown>): string => formatSseJson({ type: name, ...payload }, name);

  /**
   * `message_start` waits for the first event after `response-start`, so input usage that the
   * upstream reports right after starting (Anthropic's own `message_start`) lands in it.
   */
  function ensureStarted(): string {
    if (started) return '';
    started = true;
    const start = pendingStart ?? { id: '', model: '' };
    const startUsage = encodeAnthropicUsage(usage ?? { inputTokens: 0, outputTokens: 0 });
    const message = {
      id: anthropicMessageId(start.id, context),
      type: 'message',
      role: 'assistant',
      model: start.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...startUsage, output_tokens: usage === undefined ? 1 : startUsage.output_tokens },
    };
    return event('message_start', { message }) + event('ping', {});
  }

  function closeOpen(): string {
    if (!open) return '';
    const index = open.index;
    open = undefined;
    return event('content_block_stop', { index });
  }

  function startBlock(id: string, kind: BlockKind, contentBlock: AnthropicResponseBlock): string {
    const out = ensureStarted() + closeOpen();
    open = { id, index: nextIndex, kind };
    nextIndex += 1;
    return out + event('content_block_start', { index: open.index, content_block: contentBlock });
  }

  function deltaBlock(id: string, kind: BlockKind, delta: Record<string, unknown>): string {
    let out = '';
    if (!open || open.id !== id || open.kind !== kind) {
      // A delta without its start: open a fresh block rather than write to the wrong index.
      if (kind === 'tool_use') return '';
      out += startBlock(id, kind, kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' });
    }
    // The open block is always the one started last.
    return out + event('content_block_delta', { index: nextIndex - 1, delta });
  }

  function endBlock(id: string): string {
    return open && open.id === id ? closeOpen() : '';
  }

  function encodeError(error: GatewayError): string {
    finished = true;
    const type = isAnthropicErrorType(error.upstreamType) ? error.upstreamType : anthropicErrorType(error.status);
    return event('error', { error: { type, message: error.message } });
  }

  function finish(usageAtEnd: Usage | undefined, stopReason: string, stopSequence: string | null): string {
    finished = true;
    const final = usageAtEnd ?? usage;
    const deltaUsage: Record<string, number> = { output_tokens: final?.outputTokens ?? 0 };
    if (final) {
      deltaUsage.input_tokens = uncachedInputTokens(final);
      if (final.cacheWriteTokens !== undefined) deltaUsage.cache_creation_input_tokens = final.cacheWriteTokens;
      if (final.cacheReadTokens !== undefined) deltaUsage.cache_read_input_tokens = final.cacheReadTokens;
    }
    return (
      ensureStarted() +
      closeOpen() +
      event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: stopSequence }, usage: deltaUsage }) +
      event('message_stop', {})
    );
  }

  function encode(input: StreamEvent): string {
    switch (input.type) {
      case 'response-start':
        pendingStart = { id: input.id, model: input.model };
        return '';
      case 'usage':
        usage = input.usage;
        return '';
      case 'text-start':
        return startBlock(input.id, 'text', { type: 'text', text: '' });
      case 'text-delta':
        return input.delta === '' ? '' : deltaBlock(input.id, 'text', { type: 'text_delta', text: input.delta });
      case 'text-end':
        return endBlock(input.id);
      case 'reasoning-start':
        pendingReasoning = input.id;
        return ensureStarted() + closeOpen();
      case 'reasoning-delta':
        if (input.delta === '') return '';
        pendingReasoning = undefined;
        return deltaBlock(input.id, 'thinking', { type: 'thinking_delta', thinking: input.delta });
      case 'reasoning-end': {
        let out = '';
        if (pendingReasoning === input.id) {
          pendingReasoning = undefined;
          if (input.redactedData !== undefined) {
            return startBlock(input.id, 'thinking', { type: 'redacted_thinking', data: input.redactedData }) + closeOpen();
          }
          out += startBlock(input.id, 'thinking', { type: 'thinking', thinking: '', signature: '' });
        }
        if (open?.id === input.id && input.signature !== undefined && input.signature !== '') {
          out += event('content_block_delta', { index: open.index, delta: { type: 'signature_delta', signature: input.signature } });
        }
        return out + endBlock(input.id);
      }
      case 'tool-call-start':
        hasToolCalls = true;
        return startBlock(input.id, 'tool_use', {
          type: 'tool_use',
          id: sanitizeAnthropicToolId(input.callId, context),
          name: input.name,
          input: {},
        });
      case 'tool-call-delta':
        return input.argumentsDelta === ''
          ? ''
          : deltaBlock(input.id, 'tool_use', { type: 'input_json_delta', partial_json: input.argumentsDelta });
      case 'tool-call-end':
        return endBlock(input.id);
      case 'response-end': {
        const { stopReason, stopSequence } = encodeAnthropicStopReason(input.finishReason, hasToolCalls);
        return finish(input.usage, stopReason, stopSequence);
      }
      case 'error':
        return encodeError(input.error);
      default: {
        const unreachable: never = input;
        throw new Error(`unknown stream event ${JSON.stringify(unreachable)}`);
      }
    }
  }

  return {
    push(input: StreamEvent): string {
      return finished ? '' : encode(input);
    },
    end(): string {
      return '';
    },
  };
}
