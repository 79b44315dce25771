import { customToolInput } from './custom-tool-calls.ts';
import {
  buildCustomToolCallItem,
  buildFunctionCallItem,
  buildMessageItem,
  buildReasoningItem,
  outputTextPart,
  type OutputItem,
} from './build-openai-responses-output-item.ts';
import { emitResponsesEvent, type OpenOutputItem, type ResponsesEncoderState } from './responses-encoder-state.ts';

/** Finishes the open item; `encryptedContent` is OpenAI reasoning passed through from upstream. */
export function closeOutputItem(state: ResponsesEncoderState, encryptedContent?: string): string {
  const item = state.current;
  if (!item) return '';
  state.current = undefined;
  const where = { item_id: item.itemId, output_index: item.index };
  let out = '';
  let done: OutputItem;
  switch (item.kind) {
    case 'message':
      out += emitResponsesEvent(state, 'response.output_text.done', { ...where, content_index: 0, text: item.text, logprobs: [] });
      out += emitResponsesEvent(state, 'response.content_part.done', { ...where, content_index: 0, part: outputTextPart(item.text) });
      done = buildMessageItem(item.itemId, item.text, 'completed');
      break;
    case 'function_call':
      out += emitResponsesEvent(state, 'response.function_call_arguments.done', { ...where, name: item.name, arguments: item.text });
      done = buildFunctionCallItem(item.itemId, { callId: item.callId, name: item.name, arguments: item.text }, 'completed');
      break;
    case 'custom_tool_call': {
      const input = customToolInput(item.text);
      if (input !== '') out += emitResponsesEvent(state, 'response.custom_tool_call_input.delta', { ...where, delta: input });
      out += emitResponsesEvent(state, 'response.custom_tool_call_input.done', { ...where, input });
      done = buildCustomToolCallItem(item.itemId, { callId: item.callId, name: item.name, input }, 'completed');
      break;
    }
    case 'reasoning':
      if (item.summaryOpen) {
        out += emitResponsesEvent(state, 'response.reasoning_summary_text.done', { ...where, summary_index: 0, text: item.text });
        out += emitResponsesEvent(state, 'response.reasoning_summary_part.done', {
          ...where,
          summary_index: 0,
          part: { type: 'summary_text', text: item.text },
        });
      }
      done = buildReasoningItem(item.itemId, item.text, encryptedContent);
      break;
    default: {
      const unreachable: never = item.kind;
      return unreachable;
    }
  }
  state.output[item.index] = done;
  return out + emitResponsesEvent(state, 'response.output_item.done', { output_index: item.index, item: done });
}

/** The open item as a failed response shows it: what the client saw, marked unfinished. */
export function partialOutputItem(item: OpenOutputItem): OutputItem {
  switch (item.kind) {
    case 'message':
      return buildMessageItem(item.itemId, item.text, 'incomplete');
    case 'function_call':
      return buildFunctionCallItem(item.itemId, { callId: item.callId, name: item.name, arguments: item.text }, 'incomplete');
    case 'custom_tool_call':
      return buildCustomToolCallItem(item.itemId, { callId: item.callId, name: item.name, input: customToolInput(item.text) }, 'incomplete');
    case 'reasoning':
      return buildReasoningItem(item.itemId, item.text);
    default: {
      const unreachable: never = item.kind;
      return unreachable;
    }
  }
}
