import { GatewayError } from '../../core/gateway-error.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import { isRecord } from '../shared/is-record.ts';
import { closeChatBlock, type ChatDecoderState } from './chat-decoder-state.ts';

/**
 * One `tool_calls[]` fragment. A call's block starts once its name is known (fragments before
 * that are held); an error is returned, not thrown, when fragments of two calls interleave.
 */
export function decodeChatToolFragment(state: ChatDecoderState, fragment: Record<string, unknown>, events: StreamEvent[]): GatewayError | undefined {
  const index = typeof fragment.index === 'number' ? fragment.index : state.tools.size;
  let tool = state.tools.get(index);
  if (!tool) {
    tool = { pending: '' };
    state.tools.set(index, tool);
  }
  if (typeof fragment.id === 'string' && fragment.id !== '' && tool.callId === undefined) tool.callId = fragment.id;
  const fn = isRecord(fragment.function) ? fragment.function : {};
  if (typeof fn.name === 'string' && fn.name !== '' && tool.name === undefined) tool.name = fn.name;
  const args = typeof fn.arguments === 'string' ? fn.arguments : '';
  if (tool.blockId === undefined) {
    tool.pending += args;
    if (tool.name === undefined) return undefined;
    closeChatBlock(state, events);
    tool.blockId = `tool-${state.blockCount++}`;
    events.push({
      type: 'tool-call-start',
      id: tool.blockId,
      callId: tool.callId ?? state.context.generateId('call_'),
      name: tool.name,
    });
    state.open = { kind: 'tool', id: tool.blockId };
    if (tool.pending !== '') events.push({ type: 'tool-call-delta', id: tool.blockId, argumentsDelta: tool.pending });
    tool.pending = '';
    return undefined;
  }
  if (args === '') return undefined;
  // Every OpenAI host sends one call's fragments back to back; a call resumed after another
  // began cannot be expressed as a block lifecycle, so it is reported rather than garbled.
  if (state.open?.id !== tool.blockId) {
    return new GatewayError('upstream_invalid_response', 'The upstream interleaved the argument fragments of parallel tool calls.');
  }
  events.push({ type: 'tool-call-delta', id: tool.blockId, argumentsDelta: args });
  return undefined;
}
