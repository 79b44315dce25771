import type { FinishReason } from '../../core/finish-reason.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import type { Usage } from '../../core/usage.ts';
import type { SseMessage } from '../../sse/sse-message.ts';
import type { StreamDecoder } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';
import { decodeAnthropicUsage, mergeAnthropicUsage } from './convert-anthropic-usage.ts';
import { decodeAnthropicStopReason } from './map-anthropic-stop-reason.ts';

type OpenBlock =
  | { kind: 'text'; id: string }
  | { kind: 'reasoning'; id: string; signature?: string; redactedData?: string }
  | { kind: 'tool-call'; id: string };

function invalid(detail: string): StreamEvent {
  return {
    type: 'error',
    error: new GatewayError('upstream_invalid_response', `The upstream Anthropic stream was malformed: ${detail}.`),
  };
}

/** Anthropic's in-stream `event: error` as a gateway error that keeps the upstream's type. */
function upstreamError(payload: Record<string, unknown>): StreamEvent {
  const inner = isRecord(payload.error) ? payload.error : {};
  const type = typeof inner.type === 'string' ? inner.type : undefined;
  const message = typeof inner.message === 'string' && inner.message !== '' ? inner.message : 'The upstream reported an error mid-stream.';
  const options = type === undefined ? {} : { upstreamType: type };
  const error =
    type === 'rate_limit_error'
      ? new GatewayError('upstream_rate_limited', message, options)
      : new GatewayError('upstream_error', message, type === 'overloaded_error' ? { ...options, status: 529 } : options);
  return { type: 'error', error };
}

/**
 * Anthropic SSE → canonical events. Block ids are the upstream's block indices. Usage is
 * cumulative: input counts from `message_start`, output (and any overrides) from `message_delta`.
 */
export function createAnthropicStreamDecoder(context: RuntimeContext): StreamDecoder {
  const open = new Map<number, OpenBlock>();
  let usage: Usage | undefined;
  let finishReason: FinishReason | undefined;
  let done = false;

  function closeBlock(block: OpenBlock): StreamEvent {
    switch (block.kind) {
      case 'text':
        return { type: 'text-end', id: block.id };
      case 'reasoning': {
        const event: StreamEvent = { type: 'reasoning-end', id: block.id };
        if (block.signature !== undefined) event.signature = block.signature;
        if (block.redactedData !== undefined) event.redactedData = block.redactedData;
        return event;
      }
      case 'tool-call':
        return { type: 'tool-call-end', id: block.id };
      default: {
        const unreachable: never = block;
        throw new Error(`unknown block ${JSON.stringify(unreachable)}`);
      }
    }
  }

  function closeAll(): StreamEvent[] {
    const events = [...open.values()].map(closeBlock);
    open.clear();
    return events;
  }

  function startBlock(index: number, block: Record<string, unknown>): StreamEvent[] {
    const id = String(index);
    switch (block.type) {
      case 'text': {
        open.set(index, { kind: 'text', id });
        const events: StreamEvent[] = [{ type: 'text-start', id }];
        if (typeof block.text === 'string' && block.text !== '') events.push({ type: 'text-delta', id, delta: block.text });
        return events;
      }
      case 'thinking': {
        const state: OpenBlock = { kind: 'reasoning', id };
        if (typeof block.signature === 'string' && block.signature !== '') state.signature = block.signature;
        open.set(index, state);
        const events: StreamEvent[] = [{ type: 'reasoning-start', id }];
        if (typeof block.thinking === 'string' && block.thinking !== '') {
          events.push({ type: 'reasoning-delta', id, delta: block.thinking });
        }
        return events;
      }
      case 'redacted_thinking':
        open.set(index, { kind: 'reasoning', id, redactedData: typeof block.data === 'string' ? block.data : '' });
        return [{ type: 'reasoning-start', id }];
      case 'tool_use': {
        open.set(index, { kind: 'tool-call', id });
        const events: StreamEvent[] = [
          { type: 'tool-call-start', id, callId: typeof block.id === 'string' ? block.id : '', name: typeof block.name === 'string' ? block.name : '' },
        ];
        // Anthropic starts with `input: {}`; some compatible servers put the whole input here.
        if (isRecord(block.input) && Object.keys(block.input).length > 0) {
          events.push({ type: 'tool-call-delta', id, argumentsDelta: JSON.stringify(block.input) });
        }
        return events;
      }
      default:
        // Server tool blocks and future types have no canonical form; their deltas are ignored too.
        return [];
    }
  }

  function delta(index: number, payload: Record<string, unknown>): StreamEvent[] {
    const block = open.get(index);
    if (!block || !isRecord(payload)) return [];
    switch (payload.type) {
      case 'text_delta':
        return block.kind === 'text' && typeof payload.text === 'string' && payload.text !== ''
          ? [{ type: 'text-delta', id: block.id, delta: payload.text }]
          : [];
      case 'thinking_delta':
        return block.kind === 'reasoning' && typeof payload.thinking === 'string' && payload.thinking !== ''
          ? [{ type: 'reasoning-delta', id: block.id, delta: payload.thinking }]
          : [];
      case 'signature_delta':
        // The SDK treats each signature_delta as the whole signature; so do we.
        if (block.kind === 'reasoning' && typeof payload.signature === 'string') block.signature = payload.signature;
        return [];
      case 'input_json_delta':
        return block.kind === 'tool-call' && typeof payload.partial_json === 'string' && payload.partial_json !== ''
          ? [{ type: 'tool-call-delta', id: block.id, argumentsDelta: payload.partial_json }]
          : [];
      default:
        return [];
    }
  }

  function handle(name: string, payload: Record<string, unknown>): StreamEvent[] {
    switch (name) {
      case 'message_start': {
        const message = isRecord(payload.message) ? payload.message : {};
        usage = decodeAnthropicUsage(message.usage);
        return [
          {
            type: 'response-start',
            id: typeof message.id === 'string' ? message.id : context.generateId('msg_'),
            model: typeof message.model === 'string' ? message.model : '',
            createdAt: context.now(),
          },
          { type: 'usage', usage },
        ];
      }
      case 'content_block_start': {
        if (typeof payload.index !== 'number' || !isRecord(payload.content_block)) return [];
        // A repeated index would orphan the open block; close it so the lifecycle stays whole.
        const previous = open.get(payload.index);
        return [...(previous ? [closeBlock(previous)] : []), ...startBlock(payload.index, payload.content_block)];
      }
      case 'content_block_delta':
        return typeof payload.index === 'number' && isRecord(payload.delta) ? delta(payload.index, payload.delta) : [];
      case 'content_block_stop': {
        const block = typeof payload.index === 'number' ? open.get(payload.index) : undefined;
        if (!block) return [];
        open.delete(payload.index as number);
        return [closeBlock(block)];
      }
      case 'message_delta': {
        const messageDelta = isRecord(payload.delta) ? payload.delta : {};
        if (messageDelta.stop_reason !== undefined && messageDelta.stop_reason !== null) {
          finishReason = decodeAnthropicStopReason(messageDelta.stop_reason, messageDelta.stop_sequence);
        }
        if (isRecord(payload.usage)) usage = mergeAnthropicUsage(usage, payload.usage);
        return [];
      }
      case 'message_stop': {
        done = true;
        const end: StreamEvent = { type: 'response-end', finishReason: finishReason ?? { unified: 'other' } };
        if (usage) end.usage = usage;
        return [...closeAll(), end];
      }
      case 'error':
        done = true;
        return [upstreamError(payload)];
      default:
        // ping and event types added after this was written.
        return [];
    }
  }

  return {
    push(message: SseMessage): StreamEvent[] {
      if (done) return [];
      let payload: unknown;
      try {
        payload = JSON.parse(message.data);
      } catch {
        done = true;
        return [...closeAll(), invalid(`an event's data is not JSON (${JSON.stringify(message.data.slice(0, 120))})`)];
      }
      if (!isRecord(payload)) return [];
      const name = message.event ?? (typeof payload.type === 'string' ? payload.type : '');
      return handle(name, payload);
    },
    end(): StreamEvent[] {
      if (done) return [];
      done = true;
      return [...closeAll(), invalid('the upstream stream ended before message_stop')];
    },
  };
}
