import { GatewayError } from '../../core/gateway-error.ts';
import type { ProviderMetadata } from '../../core/provider-metadata.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import type { SseMessage } from '../../sse/sse-message.ts';
import type { StreamDecoder } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';
import { convertOpenAiResponsesUsage } from './convert-openai-responses-usage.ts';
import { mapOpenAiResponsesStatus } from './map-openai-responses-status.ts';

interface OpenBlock {
  kind: 'text' | 'reasoning' | 'tool';
  id: string;
  itemId: string;
  /** Text or arguments streamed so far, to fill in from `output_item.done` what no delta carried. */
  streamed: string;
  summaryIndex: number;
  /** Custom tool input is raw text; it is wrapped as the `{"input": ...}` arguments of its function. */
  custom: boolean;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Responses SSE from an OpenAI upstream → canonical events. */
export function createOpenAiResponsesStreamDecoder(context: RuntimeContext): StreamDecoder {
  let started = false;
  let finished = false;
  let blockCount = 0;
  let sawToolCall = false;
  let open: OpenBlock | undefined;

  function closeOpen(events: StreamEvent[], item?: Record<string, unknown>): void {
    if (!open) return;
    const block = open;
    open = undefined;
    const metadata: ProviderMetadata = { openai: { itemId: block.itemId } };
    if (block.kind === 'text') {
      events.push({ type: 'text-end', id: block.id, providerMetadata: metadata });
    } else if (block.kind === 'tool') {
      const full = item && !block.custom ? str(item.arguments) : '';
      if (block.custom) events.push({ type: 'tool-call-delta', id: block.id, argumentsDelta: '"}' });
      else if (full.length > block.streamed.length && full.startsWith(block.streamed)) {
        events.push({ type: 'tool-call-delta', id: block.id, argumentsDelta: full.slice(block.streamed.length) });
      }
      events.push({ type: 'tool-call-end', id: block.id, providerMetadata: metadata });
    } else {
      if (item && typeof item.encrypted_content === 'string') metadata.openai = { ...metadata.openai, encryptedContent: item.encrypted_content };
      events.push({ type: 'reasoning-end', id: block.id, providerMetadata: metadata });
    }
  }

  function openBlock(events: StreamEvent[], kind: OpenBlock['kind'], itemId: string, custom = false): OpenBlock {
    closeOpen(events);
    const block: OpenBlock = { kind, id: `${kind}-${blockCount++}`, itemId, streamed: '', summaryIndex: 0, custom };
    open = block;
    return block;
  }

  function textDelta(events: StreamEvent[], itemId: string, text: string): void {
    if (text === '') return;
    let block = open;
    if (block?.kind !== 'text' || block.itemId !== itemId) {
      block = openBlock(events, 'text', itemId);
      events.push({ type: 'text-start', id: block.id });
    }
    block.streamed += text;
    events.push({ type: 'text-delta', id: block.id, delta: text });
  }

  function fail(events: StreamEvent[], error: GatewayError): StreamEvent[] {
    closeOpen(events);
    finished = true;
    events.push({ type: 'error', error });
    return events;
  }

  function handle(event: Record<string, unknown>, type: string): StreamEvent[] {
    const events: StreamEvent[] = [];
    const response = isRecord(event.response) ? event.response : undefined;
    if (!started && response) {
      started = true;
      events.push({
        type: 'response-start',
        id: typeof response.id === 'string' ? response.id : context.generateId('resp_'),
        model: str(response.model),
        createdAt: typeof response.created_at === 'number' ? response.created_at * 1000 : context.now(),
      });
    }
    const itemId = str(event.item_id);
    switch (type) {
      case 'response.output_item.added': {
        const item = isRecord(event.item) ? event.item : {};
        if (item.type === 'function_call' || item.type === 'custom_tool_call') {
          const custom = item.type === 'custom_tool_call';
          const block = openBlock(events, 'tool', str(item.id), custom);
          sawToolCall = true;
          events.push({ type: 'tool-call-start', id: block.id, callId: str(item.call_id) || context.generateId('call_'), name: str(item.name) });
          if (custom) events.push({ type: 'tool-call-delta', id: block.id, argumentsDelta: '{"input":"' });
        } else if (item.type === 'reasoning') {
          const block = openBlock(events, 'reasoning', str(item.id));
          events.push({ type: 'reasoning-start', id: block.id });
        }
        return events;
      }
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        textDelta(events, itemId, str(event.delta));
        return events;
      case 'response.function_call_arguments.delta':
      case 'response.custom_tool_call_input.delta': {
        const text = str(event.delta);
        if (open?.kind !== 'tool' || text === '') return events;
        open.streamed += text;
        // JSON.stringify escapes a fragment exactly as it would inside the whole string.
        const argumentsDelta = open.custom ? JSON.stringify(text).slice(1, -1) : text;
        events.push({ type: 'tool-call-delta', id: open.id, argumentsDelta });
        return events;
      }
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta': {
        const text = str(event.delta);
        if (open?.kind !== 'reasoning' || text === '') return events;
        const index = typeof event.summary_index === 'number' ? event.summary_index : open.summaryIndex;
        // Separate summary parts the way request decoding joins them.
        const separator = index !== open.summaryIndex && open.streamed !== '' ? '\n\n' : '';
        open.summaryIndex = index;
        open.streamed += separator + text;
        events.push({ type: 'reasoning-delta', id: open.id, delta: separator + text });
        return events;
      }
      case 'response.output_item.done': {
        const item = isRecord(event.item) ? event.item : {};
        if (open && open.itemId === str(item.id)) closeOpen(events, item);
        else if (open?.kind === 'tool' && (item.type === 'function_call' || item.type === 'custom_tool_call')) closeOpen(events, item);
        return events;
      }
      case 'response.completed':
      case 'response.incomplete': {
        closeOpen(events);
        finished = true;
        const body = response ?? {};
        const usage = convertOpenAiResponsesUsage(body.usage);
        if (usage) events.push({ type: 'usage', usage });
        const reason = isRecord(body.incomplete_details) ? body.incomplete_details.reason : undefined;
        const status = body.status ?? (type === 'response.completed' ? 'completed' : 'incomplete');
        const finishReason = mapOpenAiResponsesStatus(status, reason, sawToolCall);
        events.push(usage ? { type: 'response-end', finishReason, usage } : { type: 'response-end', finishReason });
        return events;
      }
      case 'response.failed':
      case 'error': {
        const source = type === 'error' ? event : isRecord(response?.error) ? response.error : {};
        const message = str(source.message) || 'The upstream reported a failed response.';
        const code = str(source.code);
        return fail(events, new GatewayError('upstream_error', message, code === '' ? {} : { upstreamType: code }));
      }
      default:
        return events;
    }
  }

  return {
    push(message: SseMessage): StreamEvent[] {
      if (finished) return [];
      const data = message.data.trim();
      if (data === '' || data === '[DONE]') return [];
      let event: unknown;
      try {
        event = JSON.parse(data);
      } catch {
        return fail([], new GatewayError('upstream_invalid_response', `The upstream sent a stream event that is not JSON: ${data.slice(0, 200)}`));
      }
      if (!isRecord(event)) return [];
      const type = typeof event.type === 'string' ? event.type : (message.event ?? '');
      return handle(event, type);
    },
    end(): StreamEvent[] {
      if (finished) return [];
      return fail([], new GatewayError('upstream_invalid_response', 'The upstream stream ended early, before response.completed.'));
    },
  };
}
