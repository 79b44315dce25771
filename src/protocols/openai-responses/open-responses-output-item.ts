import {
  buildCustomToolCallItem,
  buildFunctionCallItem,
  buildMessageItem,
  buildReasoningItem,
  outputTextPart,
  type OutputItem,
} from './build-openai-responses-output-item.ts';
import { closeOutputItem } from './close-responses-output-item.ts';
import { emitResponsesEvent, startResponsesStream, type OpenOutputItem, type ResponsesEncoderState } from './responses-encoder-state.ts';

const ITEM_ID_PREFIX: Record<OpenOutputItem['kind'], string> = { message: 'msg_', function_call: 'fc_', custom_tool_call: 'ctc_', reasoning: 'rs_' };

function addedItem(current: OpenOutputItem): OutputItem {
  switch (current.kind) {
    case 'message':
      return buildMessageItem(current.itemId, undefined, 'in_progress');
    case 'function_call':
      return buildFunctionCallItem(current.itemId, { callId: current.callId, name: current.name, arguments: '' }, 'in_progress');
    case 'custom_tool_call':
      return buildCustomToolCallItem(current.itemId, { callId: current.callId, name: current.name, input: '' }, 'in_progress');
    case 'reasoning':
      return buildReasoningItem(current.itemId, undefined);
    default: {
      const unreachable: never = current.kind;
      return unreachable;
    }
  }
}

/** Block start → `output_item.added` (plus the message's empty `content_part`), closing any open item first. */
export function openOutputItem(state: ResponsesEncoderState, blockId: string, kind: OpenOutputItem['kind'], call?: { callId: string; name: string }): string {
  let out = startResponsesStream(state) + closeOutputItem(state);
  const prefix = ITEM_ID_PREFIX[kind];
  const current: OpenOutputItem = {
    blockId,
    kind,
    index: state.output.length,
    itemId: state.context.generateId(prefix),
    text: '',
    callId: call?.callId ?? '',
    name: call?.name ?? '',
    summaryOpen: false,
  };
  state.current = current;
  const item = addedItem(current);
  state.output.push(item);
  out += emitResponsesEvent(state, 'response.output_item.added', { output_index: current.index, item });
  if (kind === 'message') {
    out += emitResponsesEvent(state, 'response.content_part.added', {
      item_id: current.itemId,
      output_index: current.index,
      content_index: 0,
      part: outputTextPart(''),
    });
  }
  return out;
}

/** Block delta → the open item's own delta event (text, arguments or reasoning summary). */
export function appendOutputItemDelta(state: ResponsesEncoderState, blockId: string, text: string): string {
  const current = state.current;
  if (!current || current.blockId !== blockId || text === '') return '';
  current.text += text;
  const where = { item_id: current.itemId, output_index: current.index };
  switch (current.kind) {
    case 'message':
      return emitResponsesEvent(state, 'response.output_text.delta', { ...where, content_index: 0, delta: text, logprobs: [] });
    case 'function_call':
      return emitResponsesEvent(state, 'response.function_call_arguments.delta', { ...where, delta: text });
    case 'custom_tool_call':
      // The arguments are JSON around the freeform input; it is sent whole when the call ends.
      return '';
    case 'reasoning': {
      let out = '';
      if (!current.summaryOpen) {
        current.summaryOpen = true;
        out += emitResponsesEvent(state, 'response.reasoning_summary_part.added', {
          ...where,
          summary_index: 0,
          part: { type: 'summary_text', text: '' },
        });
      }
      return out + emitResponsesEvent(state, 'response.reasoning_summary_text.delta', { ...where, summary_index: 0, delta: text });
    }
    default: {
      const unreachable: never = current.kind;
      return unreachable;
    }
  }
}
