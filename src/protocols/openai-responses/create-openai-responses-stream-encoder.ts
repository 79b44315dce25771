import type { GatewayError } from '../../core/gateway-error.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import { emptyUsage, type Usage } from '../../core/usage.ts';
import { formatSseJson } from '../../sse/format-sse-message.ts';
import { ensureIdPrefix } from '../openai-chat/ensure-id-prefix.ts';
import type { StreamEncoder } from '../protocol-codec.ts';
import { buildOpenAiResponsesObject, type ResponsesObjectInput } from './build-openai-responses-object.ts';
import {
  buildFunctionCallItem,
  buildMessageItem,
  buildReasoningItem,
  outputTextPart,
  type OutputItem,
} from './build-openai-responses-output-item.ts';
import { toOpenAiResponsesStatus } from './map-openai-responses-status.ts';

interface CurrentItem {
  blockId: string;
  kind: 'message' | 'function_call' | 'reasoning';
  index: number;
  itemId: string;
  text: string;
  callId: string;
  name: string;
  summaryOpen: boolean;
}

/** The Responses error codes clients act on (Codex retries rate limits, stops on quota). */
function responsesErrorCode(error: GatewayError): string {
  switch (error.code) {
    case 'rate_limited':
    case 'upstream_rate_limited':
      return 'rate_limit_exceeded';
    case 'insufficient_balance':
    case 'spend_limit_reached':
      return 'insufficient_quota';
    case 'invalid_request':
      return 'invalid_prompt';
    default:
      return 'server_error';
  }
}

/**
 * Canonical events → the Responses SSE sequence the openai SDK and Codex accept: lifecycle
 * events carrying the whole response (one id throughout), each output item added, filled and
 * done with its complete form, and a final response.completed/incomplete with every item.
 */
export function createOpenAiResponsesStreamEncoder(context: RuntimeContext): StreamEncoder {
  let sequence = 0;
  let id = '';
  let createdAt = 0;
  let model = '';
  let started = false;
  let closed = false;
  let usage: Usage | undefined;
  const output: OutputItem[] = [];
  let current: CurrentItem | undefined;

  function emit(type: string, fields: Record<string, unknown>): string {
    return formatSseJson({ type, sequence_number: sequence++, ...fields }, type);
  }

  function response(fields: Omit<ResponsesObjectInput, 'id' | 'createdAt' | 'model'>): Record<string, unknown> {
    return buildOpenAiResponsesObject({ id, createdAt, model, ...fields });
  }

  function start(): string {
    if (started) return '';
    started = true;
    if (id === '') id = context.generateId('resp_');
    if (createdAt === 0) createdAt = Math.floor(context.now() / 1000);
    return (
      emit('response.created', { response: response({ status: 'in_progress', output: [] }) }) +
      emit('response.in_progress', { response: response({ status: 'in_progress', output: [] }) })
    );
  }

  function open(blockId: string, kind: CurrentItem['kind'], call?: { callId: string; name: string }): string {
    let out = start() + close();
    const prefix = kind === 'message' ? 'msg_' : kind === 'function_call' ? 'fc_' : 'rs_';
    current = {
      blockId,
      kind,
      index: output.length,
      itemId: context.generateId(prefix),
      text: '',
      callId: call?.callId ?? '',
      name: call?.name ?? '',
      summaryOpen: false,
    };
    const item =
      kind === 'message'
        ? buildMessageItem(current.itemId, undefined, 'in_progress')
        : kind === 'function_call'
          ? buildFunctionCallItem(current.itemId, { callId: current.callId, name: current.name, arguments: '' }, 'in_progress')
          : buildReasoningItem(current.itemId, undefined);
    output.push(item);
    out += emit('response.output_item.added', { output_index: current.index, item });
    if (kind === 'message') {
      out += emit('response.content_part.added', {
        item_id: current.itemId,
        output_index: current.index,
        content_index: 0,
        part: outputTextPart(''),
      });
    }
    return out;
  }

  function delta(blockId: string, text: string): string {
    if (!current || current.blockId !== blockId || text === '') return '';
    current.text += text;
    const where = { item_id: current.itemId, output_index: current.index };
    switch (current.kind) {
      case 'message':
        return emit('response.output_text.delta', { ...where, content_index: 0, delta: text, logprobs: [] });
      case 'function_call':
        return emit('response.function_call_arguments.delta', { ...where, delta: text });
      case 'reasoning': {
        let out = '';
        if (!current.summaryOpen) {
          current.summaryOpen = true;
          out += emit('response.reasoning_summary_part.added', { ...where, summary_index: 0, part: { type: 'summary_text', text: '' } });
        }
        return out + emit('response.reasoning_summary_text.delta', { ...where, summary_index: 0, delta: text });
      }
      default: {
        const unreachable: never = current.kind;
        return unreachable;
      }
    }
  }

  /** Finishes the open item; `encryptedContent` is OpenAI reasoning passed through from upstream. */
  function close(encryptedContent?: string): string {
    const item = current;
    if (!item) return '';
    current = undefined;
    const where = { item_id: item.itemId, output_index: item.index };
    let out = '';
    let done: OutputItem;
    switch (item.kind) {
      case 'message':
        out += emit('response.output_text.done', { ...where, content_index: 0, text: item.text, logprobs: [] });
        out += emit('response.content_part.done', { ...where, content_index: 0, part: outputTextPart(item.text) });
        done = buildMessageItem(item.itemId, item.text, 'completed');
        break;
      case 'function_call':
        out += emit('response.function_call_arguments.done', { ...where, name: item.name, arguments: item.text });
        done = buildFunctionCallItem(item.itemId, { callId: item.callId, name: item.name, arguments: item.text }, 'completed');
        break;
      case 'reasoning':
        if (item.summaryOpen) {
          out += emit('response.reasoning_summary_text.done', { ...where, summary_index: 0, text: item.text });
          out += emit('response.reasoning_summary_part.done', {
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
    output[item.index] = done;
    return out + emit('response.output_item.done', { output_index: item.index, item: done });
  }

  function partialItem(item: CurrentItem): OutputItem {
    switch (item.kind) {
      case 'message':
        return buildMessageItem(item.itemId, item.text, 'incomplete');
      case 'function_call':
        return buildFunctionCallItem(item.itemId, { callId: item.callId, name: item.name, arguments: item.text }, 'incomplete');
      case 'reasoning':
        return buildReasoningItem(item.itemId, item.text);
      default: {
        const unreachable: never = item.kind;
        return unreachable;
      }
    }
  }

  return {
    push(event: StreamEvent): string {
      if (closed) return '';
      switch (event.type) {
        case 'response-start':
          if (started) return '';
          id = ensureIdPrefix(event.id, 'resp_', context);
          createdAt = Math.floor(event.createdAt / 1000);
          model = event.model;
          return start();
        case 'text-start':
          return open(event.id, 'message');
        case 'reasoning-start':
          return open(event.id, 'reasoning');
        case 'tool-call-start':
          return open(event.id, 'function_call', { callId: event.callId, name: event.name });
        case 'text-delta':
        case 'reasoning-delta':
          return delta(event.id, event.delta);
        case 'tool-call-delta':
          return delta(event.id, event.argumentsDelta);
        case 'text-end':
        case 'tool-call-end':
          return current?.blockId === event.id ? close() : '';
        case 'reasoning-end':
          return current?.blockId === event.id ? close(event.providerMetadata?.openai?.encryptedContent) : '';
        case 'usage':
          usage = event.usage;
          return start();
        case 'response-end': {
          const out = start() + close();
          const { status, incomplete_details } = toOpenAiResponsesStatus(event.finishReason.unified);
          closed = true;
          const final = response({ status, output, usage: event.usage ?? usage ?? emptyUsage(), incompleteDetails: incomplete_details });
          return out + emit(status === 'completed' ? 'response.completed' : 'response.incomplete', { response: final });
        }
        case 'error': {
          const out = start();
          closed = true;
          // The failed response keeps what the client already saw, marked unfinished.
          if (current) output[current.index] = partialItem(current);
          const error = { code: responsesErrorCode(event.error), message: event.error.message };
          return out + emit('response.failed', { response: response({ status: 'failed', output, error, ...(usage ? { usage } : {}) }) });
        }
        default: {
          const unreachable: never = event;
          return unreachable;
        }
      }
    },
    end(): string {
      return '';
    },
  };
}
