import type { FinishReason } from '../../core/finish-reason.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import type { Usage } from '../../core/usage.ts';
import type { SseMessage } from '../sse/sse-message.ts';
import type { StreamDecoder } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';
import { decodeBedrockStopReason, decodeBedrockUsage } from './decode-bedrock-response.ts';

type OpenBlock =
  | { kind: 'text'; id: string }
  | { kind: 'reasoning'; id: string; signature?: string; redactedData?: string }
  | { kind: 'tool-call'; id: string };

/**
 * A ConverseStream exception frame (the relay turns event-stream frames into SSE messages named
 * after `:event-type`, and exceptions into `event: exception` with `exceptionType`).
 */
export function bedrockStreamException(payload: Record<string, unknown>): GatewayError {
  const type = typeof payload.exceptionType === 'string' ? payload.exceptionType : 'exception';
  const message = typeof payload.message === 'string' && payload.message !== '' ? payload.message : 'The upstream reported an error mid-stream.';
  const options = { upstreamType: type };
  if (/throttling/i.test(type)) return new GatewayError('upstream_rate_limited', message, options);
  if (/validation/i.test(type)) return new GatewayError('upstream_error', message, { ...options, status: 400 });
  return new GatewayError('upstream_error', message, options);
}

/**
 * Converse stream events → canonical events. Text and reasoning blocks have no start event in
 * Converse (their first delta opens them); tool blocks start with `contentBlockStart`. The
 * stop reason (`messageStop`) comes before usage (`metadata`), so the response ends on
 * `metadata`, or at the end of the stream when an upstream sends none.
 */
export function createBedrockStreamDecoder(context: RuntimeContext): StreamDecoder {
  const open = new Map<number, OpenBlock>();
  let started = false;
  let finishReason: FinishReason | undefined;
  let done = false;

  const start = (): StreamEvent[] => {
    if (started) return [];
    started = true;
    return [{ type: 'response-start', id: context.generateId('msg_'), model: '', createdAt: context.now() }];
  };

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

  /** Opens a block of `kind` at `index`, closing a block of another kind left there. */
  function ensure(index: number, kind: 'text' | 'reasoning'): { events: StreamEvent[]; block: OpenBlock } {
    const existing = open.get(index);
    if (existing?.kind === kind) return { events: [], block: existing };
    const events: StreamEvent[] = existing ? [closeBlock(existing)] : [];
    // Canonical blocks never interleave: close any other open block first.
    for (const [other, block] of open) {
      if (other !== index) {
        events.push(closeBlock(block));
        open.delete(other);
      }
    }
    const block: OpenBlock = { kind, id: String(index) };
    open.set(index, block);
    events.push(kind === 'text' ? { type: 'text-start', id: block.id } : { type: 'reasoning-start', id: block.id });
    return { events, block };
  }

  function delta(index: number, payload: Record<string, unknown>): StreamEvent[] {
    if (typeof payload.text === 'string') {
      if (payload.text === '') return [];
      const { events, block } = ensure(index, 'text');
      return [...events, { type: 'text-delta', id: block.id, delta: payload.text }];
    }
    if (isRecord(payload.toolUse)) {
      const block = open.get(index);
      const input = payload.toolUse.input;
      return block?.kind === 'tool-call' && typeof input === 'string' && input !== '' ? [{ type: 'tool-call-delta', id: block.id, argumentsDelta: input }] : [];
    }
    if (isRecord(payload.reasoningContent)) {
      const reasoning = payload.reasoningContent;
      const { events, block } = ensure(index, 'reasoning');
      if (block.kind !== 'reasoning') return events;
      if (typeof reasoning.text === 'string' && reasoning.text !== '') events.push({ type: 'reasoning-delta', id: block.id, delta: reasoning.text });
      if (typeof reasoning.signature === 'string') block.signature = reasoning.signature;
      if (typeof reasoning.redactedContent === 'string') block.redactedData = reasoning.redactedContent;
      return events;
    }
    return [];
  }

  function handle(name: string, payload: Record<string, unknown>): StreamEvent[] {
    switch (name) {
      case 'messageStart':
        return start();
      case 'contentBlockStart': {
        const index = typeof payload.contentBlockIndex === 'number' ? payload.contentBlockIndex : open.size;
        const startInfo = isRecord(payload.start) ? payload.start : {};
        if (!isRecord(startInfo.toolUse)) return start();
        const events = [...start(), ...closeAll()];
        const id = String(index);
        open.set(index, { kind: 'tool-call', id });
        const { toolUseId, name: toolName } = startInfo.toolUse;
        events.push({
          type: 'tool-call-start',
          id,
          callId: typeof toolUseId === 'string' ? toolUseId : context.generateId('tooluse_'),
          name: typeof toolName === 'string' ? toolName : '',
        });
        return events;
      }
      case 'contentBlockDelta': {
        const index = typeof payload.contentBlockIndex === 'number' ? payload.contentBlockIndex : 0;
        return isRecord(payload.delta) ? [...start(), ...delta(index, payload.delta)] : [];
      }
      case 'contentBlockStop': {
        const index = typeof payload.contentBlockIndex === 'number' ? payload.contentBlockIndex : -1;
        const block = open.get(index);
        if (!block) return [];
        open.delete(index);
        return [closeBlock(block)];
      }
      case 'messageStop':
        finishReason = decodeBedrockStopReason(payload.stopReason, payload.additionalModelResponseFields);
        return [...start(), ...closeAll()];
      case 'metadata': {
        done = true;
        const usage: Usage = decodeBedrockUsage(payload.usage);
        return [...start(), ...closeAll(), { type: 'usage', usage }, { type: 'response-end', finishReason: finishReason ?? { unified: 'other' }, usage }];
      }
      case 'exception':
        // Blocks cut by the error stay unclosed, as with Anthropic's `error` event, so client
        // encoders mark them incomplete rather than done.
        done = true;
        open.clear();
        return [{ type: 'error', error: bedrockStreamException(payload) }];
      default:
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
        return [
          ...closeAll(),
          { type: 'error', error: new GatewayError('upstream_invalid_response', 'The upstream Bedrock stream was malformed: an event is not JSON.') },
        ];
      }
      return isRecord(payload) ? handle(message.event ?? '', payload) : [];
    },
    end(): StreamEvent[] {
      if (done) return [];
      done = true;
      if (finishReason !== undefined) return [...start(), ...closeAll(), { type: 'response-end', finishReason }];
      return [...closeAll(), { type: 'error', error: new GatewayError('upstream_invalid_response', 'The upstream Bedrock stream ended before messageStop.') }];
    },
  };
}
