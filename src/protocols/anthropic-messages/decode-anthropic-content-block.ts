import type { StreamEvent } from '../../core/stream-event.ts';
import { isRecord } from '../shared/is-record.ts';
import type { AnthropicDecoderState, OpenAnthropicDecodedBlock } from './anthropic-decoder-state.ts';

/** `content_block_start` → the block's start event, plus a delta when the start already carries content. */
export function startDecodedBlock(state: AnthropicDecoderState, index: number, block: Record<string, unknown>): StreamEvent[] {
  const id = String(index);
  switch (block.type) {
    case 'text': {
      state.open.set(index, { kind: 'text', id });
      const events: StreamEvent[] = [{ type: 'text-start', id }];
      if (typeof block.text === 'string' && block.text !== '') events.push({ type: 'text-delta', id, delta: block.text });
      return events;
    }
    case 'thinking': {
      const open: OpenAnthropicDecodedBlock = { kind: 'reasoning', id };
      if (typeof block.signature === 'string' && block.signature !== '') open.signature = block.signature;
      state.open.set(index, open);
      const events: StreamEvent[] = [{ type: 'reasoning-start', id }];
      if (typeof block.thinking === 'string' && block.thinking !== '') {
        events.push({ type: 'reasoning-delta', id, delta: block.thinking });
      }
      return events;
    }
    case 'redacted_thinking':
      state.open.set(index, { kind: 'reasoning', id, redactedData: typeof block.data === 'string' ? block.data : '' });
      return [{ type: 'reasoning-start', id }];
    case 'tool_use': {
      state.open.set(index, { kind: 'tool-call', id });
      const events: StreamEvent[] = [
        { type: 'tool-call-start', id, callId: typeof block.id === 'string' ? block.id : '', name: typeof block.name === 'string' ? block.name : '' },
      ];
      // Anthropic starts with `input: {}`; some compatible servers put the whole input here.
      if (isRecord(block.input) && Object.keys(block.input).length > 0) {
        events.push({ type: 'tool-call-delta', id, argumentsDelta: JSON.stringify(block.input) });
      }
      return events;
    }
    default:
      // Server tool blocks and future types have no canonical form; their deltas are ignored too.
      return [];
  }
}

/** `content_block_delta` → a delta of the open block at `index`, when its type fits the block. */
export function decodeBlockDelta(state: AnthropicDecoderState, index: number, payload: Record<string, unknown>): StreamEvent[] {
  const block = state.open.get(index);
  if (!block || !isRecord(payload)) return [];
  switch (payload.type) {
    case 'text_delta':
      return block.kind === 'text' && typeof payload.text === 'string' && payload.text !== ''
        ? [{ type: 'text-delta', id: block.id, delta: payload.text }]
        : [];
    case 'thinking_delta':
      return block.kind === 'reasoning' && typeof payload.thinking === 'string' && payload.thinking !== ''
        ? [{ type: 'reasoning-delta', id: block.id, delta: payload.thinking }]
        : [];
    case 'signature_delta':
      // The SDK treats each signature_delta as the whole signature; so do we.
      if (block.kind === 'reasoning' && typeof payload.signature === 'string') block.signature = payload.signature;
      return [];
    case 'input_json_delta':
      return block.kind === 'tool-call' && typeof payload.partial_json === 'string' && payload.partial_json !== ''
        ? [{ type: 'tool-call-delta', id: block.id, argumentsDelta: payload.partial_json }]
        : [];
    default:
      return [];
  }
}
