import type { StreamEvent } from '../../core/stream-event.ts';
import { openDecodedBlock, str, type ResponsesDecoderState } from './responses-decoder-state.ts';

/** Output text (or refusal) delta: a message's block opens at its first text. */
export function decodeTextDelta(state: ResponsesDecoderState, events: StreamEvent[], itemId: string, text: string): void {
  if (text === '') return;
  let block = state.open;
  if (block?.kind !== 'text' || block.itemId !== itemId) {
    block = openDecodedBlock(state, events, 'text', itemId);
    events.push({ type: 'text-start', id: block.id });
  }
  block.streamed += text;
  events.push({ type: 'text-delta', id: block.id, delta: text });
}

/** Function arguments or custom tool input delta, into the open tool block. */
export function decodeToolArgumentsDelta(state: ResponsesDecoderState, events: StreamEvent[], event: Record<string, unknown>): void {
  const text = str(event.delta);
  const open = state.open;
  if (open?.kind !== 'tool' || text === '') return;
  open.streamed += text;
  // JSON.stringify escapes a fragment exactly as it would inside the whole string.
  const argumentsDelta = open.custom ? JSON.stringify(text).slice(1, -1) : text;
  events.push({ type: 'tool-call-delta', id: open.id, argumentsDelta });
}

/** Reasoning summary or reasoning text delta, into the open reasoning block. */
export function decodeReasoningDelta(state: ResponsesDecoderState, events: StreamEvent[], event: Record<string, unknown>): void {
  const text = str(event.delta);
  const open = state.open;
  if (open?.kind !== 'reasoning' || text === '') return;
  const index = typeof event.summary_index === 'number' ? event.summary_index : open.summaryIndex;
  // Separate summary parts the way request decoding joins them.
  const separator = index !== open.summaryIndex && open.streamed !== '' ? '\n\n' : '';
  open.summaryIndex = index;
  open.streamed += separator + text;
  events.push({ type: 'reasoning-delta', id: open.id, delta: separator + text });
}
