import type { FinishReason } from '../../core/finish-reason.ts';
import type { GatewayError } from '../../core/gateway-error.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import type { Usage } from '../../core/usage.ts';

export interface ChatToolState {
  blockId?: string;
  callId?: string;
  name?: string;
  /** Argument fragments that arrived before the name did. */
  pending: string;
}

/**
 * Per-stream state of the chat decoder: the one synthesised block that is open, the tool calls
 * by index, and the finish reason and usage held until `[DONE]`. Each event family's functions
 * update it in place.
 */
export interface ChatDecoderState {
  readonly context: RuntimeContext;
  started: boolean;
  finished: boolean;
  blockCount: number;
  open: { kind: 'text' | 'reasoning' | 'tool'; id: string } | undefined;
  readonly tools: Map<number, ChatToolState>;
  finishReason: FinishReason | undefined;
  usage: Usage | undefined;
}

export function createChatDecoderState(context: RuntimeContext): ChatDecoderState {
  return {
    context,
    started: false,
    finished: false,
    blockCount: 0,
    open: undefined,
    tools: new Map(),
    finishReason: undefined,
    usage: undefined,
  };
}

/** Ends the open block, whatever its kind. */
export function closeChatBlock(state: ChatDecoderState, events: StreamEvent[]): void {
  const open = state.open;
  if (!open) return;
  const id = open.id;
  if (open.kind === 'text') events.push({ type: 'text-end', id });
  else if (open.kind === 'reasoning') events.push({ type: 'reasoning-end', id });
  else events.push({ type: 'tool-call-end', id });
  state.open = undefined;
}

/** The id of the open text or reasoning block, opening one (and closing another kind) when needed. */
export function ensureChatBlock(state: ChatDecoderState, kind: 'text' | 'reasoning', events: StreamEvent[]): string {
  if (state.open?.kind === kind) return state.open.id;
  closeChatBlock(state, events);
  const id = `${kind}-${state.blockCount++}`;
  events.push(kind === 'text' ? { type: 'text-start', id } : { type: 'reasoning-start', id });
  state.open = { kind, id };
  return id;
}

/** Ends the stream with an error, after closing the open block. */
export function failChatStream(state: ChatDecoderState, events: StreamEvent[], error: GatewayError): StreamEvent[] {
  closeChatBlock(state, events);
  events.push({ type: 'error', error });
  state.finished = true;
  return events;
}
