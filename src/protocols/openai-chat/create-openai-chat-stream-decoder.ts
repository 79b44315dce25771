import type { FinishReason } from '../../core/finish-reason.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import type { Usage } from '../../core/usage.ts';
import type { SseMessage } from '../../sse/sse-message.ts';
import type { StreamDecoder } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';
import { convertOpenAiUsage } from './convert-openai-usage.ts';
import { decodeOpenAiError } from './decode-openai-error.ts';
import { mapOpenAiFinishReason } from './map-openai-finish-reason.ts';

interface ToolState {
  blockId?: string;
  callId?: string;
  name?: string;
  /** Argument fragments that arrived before the name did. */
  pending: string;
}

/**
 * OpenAI chunks → canonical events. Chat chunks have no block boundaries, so they are
 * synthesised: a block opens at its first delta and closes when another kind starts or the
 * choice finishes. `response-end` waits for `[DONE]` (or the end of the body) because the usage
 * chunk follows the finish reason.
 */
export function createOpenAiChatStreamDecoder(context: RuntimeContext): StreamDecoder {
  let started = false;
  let finished = false;
  let blockCount = 0;
  let open: { kind: 'text' | 'reasoning' | 'tool'; id: string } | undefined;
  const tools = new Map<number, ToolState>();
  let finishReason: FinishReason | undefined;
  let usage: Usage | undefined;

  function closeOpen(events: StreamEvent[]): void {
    if (!open) return;
    const id = open.id;
    if (open.kind === 'text') events.push({ type: 'text-end', id });
    else if (open.kind === 'reasoning') events.push({ type: 'reasoning-end', id });
    else events.push({ type: 'tool-call-end', id });
    open = undefined;
  }

  function ensureOpen(kind: 'text' | 'reasoning', events: StreamEvent[]): string {
    if (open?.kind === kind) return open.id;
    closeOpen(events);
    const id = `${kind}-${blockCount++}`;
    events.push(kind === 'text' ? { type: 'text-start', id } : { type: 'reasoning-start', id });
    open = { kind, id };
    return id;
  }

  function fail(events: StreamEvent[], error: GatewayError): StreamEvent[] {
    closeOpen(events);
    events.push({ type: 'error', error });
    finished = true;
    return events;
  }

  function toolFragment(fragment: Record<string, unknown>, events: StreamEvent[]): GatewayError | undefined {
    const index = typeof fragment.index === 'number' ? fragment.index : tools.size;
    let state = tools.get(index);
    if (!state) {
      state = { pending: '' };
      tools.set(index, state);
    }
    if (typeof fragment.id === 'string' && fragment.id !== '' && state.callId === undefined) state.callId = fragment.id;
    const fn = isRecord(fragment.function) ? fragment.function : {};
    if (typeof fn.name === 'string' && fn.name !== '' && state.name === undefined) state.name = fn.name;
    const args = typeof fn.arguments === 'string' ? fn.arguments : '';
    if (state.blockId === undefined) {
      state.pending += args;
      if (state.name === undefined) return undefined;
      closeOpen(events);
      state.blockId = `tool-${blockCount++}`;
      events.push({
        type: 'tool-call-start',
        id: state.blockId,
        callId: state.callId ?? context.generateId('call_'),
        name: state.name,
      });
      open = { kind: 'tool', id: state.blockId };
      if (state.pending !== '') events.push({ type: 'tool-call-delta', id: state.blockId, argumentsDelta: state.pending });
      state.pending = '';
      return undefined;
    }
    if (args === '') return undefined;
    // Every OpenAI host sends one call's fragments back to back; a call resumed after another
    // began cannot be expressed as a block lifecycle, so it is reported rather than garbled.
    if (open?.id !== state.blockId) {
      return new GatewayError('upstream_invalid_response', 'The upstream interleaved the argument fragments of parallel tool calls.');
    }
    events.push({ type: 'tool-call-delta', id: state.blockId, argumentsDelta: args });
    return undefined;
  }

  function finish(events: StreamEvent[]): StreamEvent[] {
    if (finished) return events;
    closeOpen(events);
    finished = true;
    if (!finishReason) {
      events.push({
        type: 'error',
        error: new GatewayError('upstream_invalid_response', 'The upstream stream ended early, before a finish reason.'),
      });
      return events;
    }
    events.push(usage ? { type: 'response-end', finishReason, usage } : { type: 'response-end', finishReason });
    return events;
  }

  return {
    push(message: SseMessage): StreamEvent[] {
      if (finished) return [];
      const data = message.data.trim();
      if (data === '') return [];
      if (data === '[DONE]') return finish([]);
      let chunk: unknown;
      try {
        chunk = JSON.parse(data);
      } catch {
        return fail([], new GatewayError('upstream_invalid_response', `The upstream sent a stream chunk that is not JSON: ${data.slice(0, 200)}`));
      }
      if (!isRecord(chunk)) return [];
      if (chunk.error !== undefined || message.event === 'error') {
        const { message: text, type } = decodeOpenAiError(200, chunk);
        return fail([], new GatewayError('upstream_error', text, type === undefined ? {} : { upstreamType: type }));
      }
      const events: StreamEvent[] = [];
      if (!started) {
        started = true;
        events.push({
          type: 'response-start',
          id: typeof chunk.id === 'string' ? chunk.id : context.generateId('chatcmpl-'),
          model: typeof chunk.model === 'string' ? chunk.model : '',
          createdAt: typeof chunk.created === 'number' ? chunk.created * 1000 : context.now(),
        });
      }
      const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
      if (isRecord(choice)) {
        const delta = isRecord(choice.delta) ? choice.delta : {};
        const reasoning = delta.reasoning_content ?? delta.reasoning;
        if (typeof reasoning === 'string' && reasoning !== '') {
          events.push({ type: 'reasoning-delta', id: ensureOpen('reasoning', events), delta: reasoning });
        }
        for (const text of [delta.content, delta.refusal]) {
          if (typeof text === 'string' && text !== '') {
            events.push({ type: 'text-delta', id: ensureOpen('text', events), delta: text });
          }
        }
        if (Array.isArray(delta.tool_calls)) {
          for (const fragment of delta.tool_calls) {
            if (!isRecord(fragment)) continue;
            const error = toolFragment(fragment, events);
            if (error) return fail(events, error);
          }
        }
        if (typeof choice.finish_reason === 'string') {
          finishReason = mapOpenAiFinishReason(choice.finish_reason);
          closeOpen(events);
        }
      }
      const reported = convertOpenAiUsage(chunk.usage);
      if (reported) {
        usage = reported;
        events.push({ type: 'usage', usage: reported });
      }
      return events;
    },
    end(): StreamEvent[] {
      return finish([]);
    },
  };
}
