import type { StreamEvent } from '../../core/stream-event.ts';
import { isRecord } from '../shared/is-record.ts';
import { closeDecodedBlock, openDecodedBlock, str, type ResponsesDecoderState } from './responses-decoder-state.ts';

/** `response.output_item.added`: a tool call or reasoning item opens its block (messages open at their first text delta). */
export function decodeOutputItemAdded(state: ResponsesDecoderState, events: StreamEvent[], event: Record<string, unknown>): void {
  const item = isRecord(event.item) ? event.item : {};
  if (item.type === 'function_call' || item.type === 'custom_tool_call') {
    const custom = item.type === 'custom_tool_call';
    const block = openDecodedBlock(state, events, 'tool', str(item.id), custom);
    state.sawToolCall = true;
    events.push({
      type: 'tool-call-start',
      id: block.id,
      callId: str(item.call_id) || state.context.generateId('call_'),
      name: str(item.name),
    });
    if (custom) events.push({ type: 'tool-call-delta', id: block.id, argumentsDelta: '{"input":"' });
  } else if (item.type === 'reasoning') {
    const block = openDecodedBlock(state, events, 'reasoning', str(item.id));
    events.push({ type: 'reasoning-start', id: block.id });
  }
}

/** `response.output_item.done`: ends the item's block, filling in what no delta carried. */
export function decodeOutputItemDone(state: ResponsesDecoderState, events: StreamEvent[], event: Record<string, unknown>): void {
  const item = isRecord(event.item) ? event.item : {};
  const open = state.open;
  if (open && open.itemId === str(item.id)) closeDecodedBlock(state, events, item);
  else if (open?.kind === 'tool' && (item.type === 'function_call' || item.type === 'custom_tool_call')) closeDecodedBlock(state, events, item);
}
