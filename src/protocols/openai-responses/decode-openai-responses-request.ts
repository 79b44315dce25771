import type { ChatRequest, ResponseFormat, TextPart } from '../../core/chat-request.ts';
import { invalidRequest } from '../../core/gateway-error.ts';
import type { Warning } from '../../core/warning.ts';
import { isOpenAiReasoningEffort, OPENAI_REASONING_EFFORTS } from '../openai-chat/openai-reasoning-effort.ts';
import { decodeOpenAiResponseFormat } from '../openai-chat/openai-response-format.ts';
import {
  readModel,
  readOptionalBoolean,
  readOptionalInteger,
  readOptionalNumber,
  readOptionalRecord,
  readOptionalString,
  readRequestBody,
} from '../openai-chat/read-optional-fields.ts';
import type { ClientRequestInput, Decoded } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';
import { decodeOpenAiResponsesInput } from './decode-openai-responses-input.ts';
import { decodeOpenAiResponsesToolChoice, decodeOpenAiResponsesTools } from './decode-openai-responses-tools.ts';

function readFormat(body: Record<string, unknown>): ResponseFormat | undefined {
  const text = readOptionalRecord(body, 'text');
  const format = text && isRecord(text.format) ? text.format : undefined;
  if (!format) return undefined;
  return decodeOpenAiResponseFormat(format, format, 'text.format.type');
}

/** A Responses API body from a client (Codex, the openai SDK) → the canonical request. */
export function decodeOpenAiResponsesRequest(input: ClientRequestInput): Decoded<ChatRequest> {
  const body = readRequestBody(input.body);
  const warnings: Warning[] = [];
  const model = readModel(body);
  const { system, messages } = decodeOpenAiResponsesInput(body.input, warnings);
  const instructions = readOptionalString(body, 'instructions');
  const leading: TextPart[] = instructions ? [{ type: 'text', text: instructions }] : [];
  const request: ChatRequest = {
    model,
    system: [...leading, ...system],
    messages,
    tools: decodeOpenAiResponsesTools(body.tools, warnings),
    stream: readOptionalBoolean(body, 'stream') ?? false,
  };
  const toolChoice = decodeOpenAiResponsesToolChoice(body.tool_choice, warnings);
  if (toolChoice) request.toolChoice = toolChoice;
  const parallel = readOptionalBoolean(body, 'parallel_tool_calls');
  if (parallel !== undefined) request.parallelToolCalls = parallel;
  const maxTokens = readOptionalInteger(body, 'max_output_tokens');
  if (maxTokens !== undefined) request.maxOutputTokens = maxTokens;
  const temperature = readOptionalNumber(body, 'temperature');
  if (temperature !== undefined) request.temperature = temperature;
  const topP = readOptionalNumber(body, 'top_p');
  if (topP !== undefined) request.topP = topP;
  const reasoning = readOptionalRecord(body, 'reasoning');
  if (reasoning && reasoning.effort !== undefined && reasoning.effort !== null) {
    const effort = reasoning.effort;
    if (typeof effort !== 'string' || !isOpenAiReasoningEffort(effort)) {
      throw invalidRequest(`'reasoning.effort' must be one of ${OPENAI_REASONING_EFFORTS.join(', ')}.`, 'reasoning.effort');
    }
    request.reasoning = { enabled: effort !== 'none', effort };
  }
  const format = readFormat(body);
  if (format) request.responseFormat = format;
  const user = readOptionalString(body, 'user') ?? readOptionalString(body, 'safety_identifier');
  if (user !== undefined) request.user = user;
  if (body.previous_response_id !== undefined && body.previous_response_id !== null) {
    warnings.push({
      type: 'unsupported',
      feature: 'previous_response_id',
      detail: 'the gateway keeps no conversation state; send the full history in input',
    });
  }
  if (body.conversation !== undefined && body.conversation !== null) {
    warnings.push({ type: 'unsupported', feature: 'conversation', detail: 'the gateway keeps no conversation state' });
  }
  // Server-side compaction is OpenAI's own; the gateway does it for other upstreams before the
  // request gets here (generation/compact-on-threshold.ts), so what reaches a translated lane is dropped.
  if (Array.isArray(body.context_management) && body.context_management.length > 0) {
    warnings.push({
      type: 'unsupported',
      feature: 'context_management',
      detail: 'server-side compaction runs only on an OpenAI Responses upstream; the whole context was sent',
    });
  }
  return { value: request, warnings };
}
