import type { AnthropicResponseBlock } from './anthropic-wire-types.ts';
import { anthropicSseEvent, ensureAnthropicMessageStarted, type AnthropicBlockKind, type AnthropicEncoderState } from './anthropic-encoder-state.ts';

/** `content_block_stop` for the open block, if any. */
export function closeAnthropicBlock(state: AnthropicEncoderState): string {
  if (!state.open) return '';
  const index = state.open.index;
  state.open = undefined;
  return anthropicSseEvent('content_block_stop', { index });
}

/** `content_block_start` at the next index, after closing the open block: blocks go one at a time. */
export function startAnthropicBlock(state: AnthropicEncoderState, id: string, kind: AnthropicBlockKind, contentBlock: AnthropicResponseBlock): string {
  const out = ensureAnthropicMessageStarted(state) + closeAnthropicBlock(state);
  const open = { id, index: state.nextIndex, kind };
  state.open = open;
  state.nextIndex += 1;
  return out + anthropicSseEvent('content_block_start', { index: open.index, content_block: contentBlock });
}

/** `content_block_delta` into the block `id`, opening one first if its start never came. */
export function appendAnthropicBlockDelta(state: AnthropicEncoderState, id: string, kind: AnthropicBlockKind, delta: Record<string, unknown>): string {
  let out = '';
  const open = state.open;
  if (!open || open.id !== id || open.kind !== kind) {
    // A delta without its start: open a fresh block rather than write to the wrong index.
    if (kind === 'tool_use') return '';
    out += startAnthropicBlock(state, id, kind, kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' });
  }
  // The open block is always the one started last.
  return out + anthropicSseEvent('content_block_delta', { index: state.nextIndex - 1, delta });
}

/** Block end → `content_block_stop`, only when it is the open block. */
export function endAnthropicBlock(state: AnthropicEncoderState, id: string): string {
  return state.open && state.open.id === id ? closeAnthropicBlock(state) : '';
}
