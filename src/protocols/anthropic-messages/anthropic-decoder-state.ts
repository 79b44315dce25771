import type { FinishReason } from '../../core/finish-reason.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import type { Usage } from '../../core/usage.ts';

export type OpenAnthropicDecodedBlock =
  | { kind: 'text'; id: string }
  | { kind: 'reasoning'; id: string; signature?: string; redactedData?: string }
  | { kind: 'tool-call'; id: string };

/**
 * Per-stream state of the Anthropic decoder: the open blocks by upstream index, and usage and
 * finish reason collected until `message_stop`. Each event family's functions update it in place.
 */
export interface AnthropicDecoderState {
  readonly context: RuntimeContext;
  readonly open: Map<number, OpenAnthropicDecodedBlock>;
  usage: Usage | undefined;
  finishReason: FinishReason | undefined;
  done: boolean;
}

export function createAnthropicDecoderState(context: RuntimeContext): AnthropicDecoderState {
  return { context, open: new Map(), usage: undefined, finishReason: undefined, done: false };
}

/** The canonical end event of one block. */
export function closeDecodedBlock(block: OpenAnthropicDecodedBlock): StreamEvent {
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

/** Ends every open block, in the order they opened. */
export function closeAllDecodedBlocks(state: AnthropicDecoderState): StreamEvent[] {
  const events = [...state.open.values()].map(closeDecodedBlock);
  state.open.clear();
  return events;
}
