import type { GatewayError } from '../../core/gateway-error.ts';
import type { ProviderMetadata } from '../../core/provider-metadata.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { StreamEvent } from '../../core/stream-event.ts';

export interface OpenDecodedBlock {
  kind: 'text' | 'reasoning' | 'tool';
  id: string;
  itemId: string;
  /** Text or arguments streamed so far, to fill in from `output_item.done` what no delta carried. */
  streamed: string;
  summaryIndex: number;
  /** Custom tool input is raw text; it is wrapped as the `{"input": ...}` arguments of its function. */
  custom: boolean;
}

/**
 * Per-stream state of the Responses decoder: at most one canonical block is open (Responses
 * streams one output item at a time). Each event family's functions update it in place.
 */
export interface ResponsesDecoderState {
  readonly context: RuntimeContext;
  started: boolean;
  finished: boolean;
  blockCount: number;
  sawToolCall: boolean;
  open: OpenDecodedBlock | undefined;
}

export function createResponsesDecoderState(context: RuntimeContext): ResponsesDecoderState {
  return { context, started: false, finished: false, blockCount: 0, sawToolCall: false, open: undefined };
}

export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Ends the open block; `item` is the finished output item, when its `output_item.done` ends it. */
export function closeDecodedBlock(state: ResponsesDecoderState, events: StreamEvent[], item?: Record<string, unknown>): void {
  if (!state.open) return;
  const block = state.open;
  state.open = undefined;
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

/** Opens a new block (closing the open one); the caller pushes its start event. */
export function openDecodedBlock(
  state: ResponsesDecoderState,
  events: StreamEvent[],
  kind: OpenDecodedBlock['kind'],
  itemId: string,
  custom = false,
): OpenDecodedBlock {
  closeDecodedBlock(state, events);
  const block: OpenDecodedBlock = { kind, id: `${kind}-${state.blockCount++}`, itemId, streamed: '', summaryIndex: 0, custom };
  state.open = block;
  return block;
}

/** Ends the stream with an error, after closing the open block. */
export function failDecodedStream(state: ResponsesDecoderState, events: StreamEvent[], error: GatewayError): StreamEvent[] {
  closeDecodedBlock(state, events);
  state.finished = true;
  events.push({ type: 'error', error });
  return events;
}
