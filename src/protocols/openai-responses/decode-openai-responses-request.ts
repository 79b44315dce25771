import type { ChatRequest, ReasoningEffort, ResponseFormat, TextPart } from '../../core/chat-request.ts';
import { invalidRequest } from '../../core/gateway-error.ts';
import type { Warning } from '../../core/warning.ts';
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

const EFFORTS: readonly string[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'];

function readFormat(body: Record<string, unknown>): ResponseFormat | undefined {
  const text = readOptionalRecord(body, 'text');
  const format = text && isRecord(text.format) ? text.format : undefined;
  if (!format) return undefined;
  switch (format.type) {
    case 'text':
      return { type: 'text' };
    case 'json_object':
      return { type: 'json' };
    case 'json_schema':
      return {
        type: 'json',
        ...(isRecord(format.schema) ? { schema: format.schema } : {}),
        ...(typeof format.name === 'string' ? { name: format.name } : {}),
        ...(typeof format.strict === 'boolean' ? { strict: format.strict } : {}),
      };
    default:
      throw invalidRequest("'text.format.type' must be text, json_object or json_schema.", 'text.format.type');
  }
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
    if (typeof reasoning.effort !== 'string' || !EFFORTS.includes(reasoning.effort)) {
      throw invalidRequest(`'reasoning.effort' must be one of ${EFFORTS.join(', ')}.`, 'reasoning.effort');
    }
    const effort = reasoning.effort as ReasoningEffort;
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
  return { value: request, warnings };
}
