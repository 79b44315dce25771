import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { Usage } from '../../core/usage.ts';
import type { ResponseStateEcho } from '../protocol-codec.ts';
import { formatSseJson } from '../sse/format-sse-message.ts';
import { buildOpenAiResponsesObject, type ResponsesObjectInput } from './build-openai-responses-object.ts';
import type { OutputItem } from './build-openai-responses-output-item.ts';

/** The output item being streamed: at most one is open at a time. */
export interface OpenOutputItem {
  blockId: string;
  kind: 'message' | 'function_call' | 'custom_tool_call' | 'reasoning';
  index: number;
  itemId: string;
  text: string;
  callId: string;
  name: string;
  summaryOpen: boolean;
}

/**
 * Per-stream state of the Responses encoder. The functions of each event family
 * (lifecycle, output items, terminal events) read and update it in place.
 */
export interface ResponsesEncoderState {
  readonly context: RuntimeContext;
  sequence: number;
  id: string;
  createdAt: number;
  model: string;
  started: boolean;
  closed: boolean;
  usage: Usage | undefined;
  /** Every item so far, in its latest form: the final response carries them all. */
  readonly output: OutputItem[];
  current: OpenOutputItem | undefined;
  /** The client's custom (freeform) tool names. */
  readonly customTools: ReadonlySet<string>;
  /** `store` and `previous_response_id` every response object echoes. */
  readonly responseState: ResponseStateEcho | undefined;
  /** Items the gateway placed before the model's output, emitted once the stream starts. */
  readonly leadingItems: readonly Record<string, unknown>[];
}

export function createResponsesEncoderState(
  context: RuntimeContext,
  customTools: readonly string[] = [],
  responseState?: ResponseStateEcho,
  leadingItems: readonly Record<string, unknown>[] = [],
): ResponsesEncoderState {
  return {
    leadingItems,
    customTools: new Set(customTools),
    responseState,
    context,
    sequence: 0,
    id: '',
    createdAt: 0,
    model: '',
    started: false,
    closed: false,
    usage: undefined,
    output: [],
    current: undefined,
  };
}

/** One SSE event; every event carries the next sequence number. */
export function emitResponsesEvent(state: ResponsesEncoderState, type: string, fields: Record<string, unknown>): string {
  return formatSseJson({ type, sequence_number: state.sequence++, ...fields }, type);
}

/** The response object lifecycle events carry, with the one id of this stream. */
export function responsesSnapshot(state: ResponsesEncoderState, fields: Omit<ResponsesObjectInput, 'id' | 'createdAt' | 'model'>): Record<string, unknown> {
  return buildOpenAiResponsesObject({
    id: state.id,
    createdAt: state.createdAt,
    model: state.model,
    ...fields,
    ...(state.responseState ? { state: state.responseState } : {}),
  });
}

/** `response.created` + `response.in_progress`, once, before anything else is written. */
export function startResponsesStream(state: ResponsesEncoderState): string {
  if (state.started) return '';
  state.started = true;
  if (state.id === '') state.id = state.context.generateId('resp_');
  if (state.createdAt === 0) state.createdAt = Math.floor(state.context.now() / 1000);
  let out =
    emitResponsesEvent(state, 'response.created', { response: responsesSnapshot(state, { status: 'in_progress', output: [] }) }) +
    emitResponsesEvent(state, 'response.in_progress', { response: responsesSnapshot(state, { status: 'in_progress', output: [] }) });
  for (const item of state.leadingItems) {
    const where = { output_index: state.output.length, item };
    state.output.push(item as unknown as OutputItem);
    out += emitResponsesEvent(state, 'response.output_item.added', where) + emitResponsesEvent(state, 'response.output_item.done', where);
  }
  return out;
}
