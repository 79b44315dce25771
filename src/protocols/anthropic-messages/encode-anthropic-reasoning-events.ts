import type { StreamEvent } from '../../core/stream-event.ts';
import { anthropicSseEvent, ensureAnthropicMessageStarted, type AnthropicEncoderState } from './anthropic-encoder-state.ts';
import { appendAnthropicBlockDelta, closeAnthropicBlock, endAnthropicBlock, startAnthropicBlock } from './encode-anthropic-content-block.ts';

type ReasoningEvent = Extract<StreamEvent, { type: 'reasoning-start' | 'reasoning-delta' | 'reasoning-end' }>;

/**
 * Reasoning → `thinking` or `redacted_thinking` blocks. The block is written at the first
 * delta, or at the end when there was none: only then is it known whether it was redacted.
 */
export function encodeAnthropicReasoningEvent(state: AnthropicEncoderState, input: ReasoningEvent): string {
  switch (input.type) {
    case 'reasoning-start':
      state.pendingReasoning = input.id;
      return ensureAnthropicMessageStarted(state) + closeAnthropicBlock(state);
    case 'reasoning-delta':
      if (input.delta === '') return '';
      state.pendingReasoning = undefined;
      return appendAnthropicBlockDelta(state, input.id, 'thinking', { type: 'thinking_delta', thinking: input.delta });
    case 'reasoning-end': {
      let out = '';
      if (state.pendingReasoning === input.id) {
        state.pendingReasoning = undefined;
        if (input.redactedData !== undefined) {
          return startAnthropicBlock(state, input.id, 'thinking', { type: 'redacted_thinking', data: input.redactedData }) + closeAnthropicBlock(state);
        }
        out += startAnthropicBlock(state, input.id, 'thinking', { type: 'thinking', thinking: '', signature: '' });
      }
      const open = state.open;
      if (open?.id === input.id && input.signature !== undefined && input.signature !== '') {
        out += anthropicSseEvent('content_block_delta', {
          index: open.index,
          delta: { type: 'signature_delta', signature: input.signature },
        });
      }
      return out + endAnthropicBlock(state, input.id);
    }
    default: {
      const unreachable: never = input;
      throw new Error(`unknown reasoning event ${JSON.stringify(unreachable)}`);
    }
  }
}
