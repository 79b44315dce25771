import type { ChatRequest, ReasoningEffort, ResponseFormat } from '../../core/chat-request.ts';
import { invalidRequest } from '../../core/gateway-error.ts';
import type { Warning } from '../../core/warning.ts';
import type { ClientRequestInput, Decoded } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';
import { decodeOpenAiChatMessages } from './decode-openai-chat-messages.ts';
import { decodeOpenAiChatToolChoice, decodeOpenAiChatTools } from './decode-openai-chat-tools.ts';
import { isOpenAiReasoningEffort, OPENAI_REASONING_EFFORTS } from './openai-reasoning-effort.ts';
import { decodeOpenAiResponseFormat } from './openai-response-format.ts';
import {
  readModel,
  readOptionalBoolean,
  readOptionalInteger,
  readOptionalNumber,
  readOptionalRecord,
  readOptionalString,
  readRequestBody,
} from './read-optional-fields.ts';

function readStop(raw: unknown): string[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'string') return [raw];
  if (Array.isArray(raw) && raw.every((item) => typeof item === 'string')) return raw;
  throw invalidRequest("'stop' must be a string or an array of strings.", 'stop');
}

function readResponseFormat(body: Record<string, unknown>): ResponseFormat | undefined {
  const format = readOptionalRecord(body, 'response_format');
  if (format === undefined) return undefined;
  return decodeOpenAiResponseFormat(format, isRecord(format.json_schema) ? format.json_schema : {}, 'response_format.type');
}

function readEffort(body: Record<string, unknown>): ReasoningEffort | undefined {
  const effort = readOptionalString(body, 'reasoning_effort');
  if (effort === undefined) return undefined;
  if (!isOpenAiReasoningEffort(effort)) {
    throw invalidRequest(`'reasoning_effort' must be one of ${OPENAI_REASONING_EFFORTS.join(', ')}; got ${JSON.stringify(effort)}.`, 'reasoning_effort');
  }
  return effort;
}

/** A Chat Completions body from a client → the canonical request. */
export function decodeOpenAiChatRequest(input: ClientRequestInput): Decoded<ChatRequest> {
  const body = readRequestBody(input.body);
  const warnings: Warning[] = [];
  const model = readModel(body);
  const { system, messages } = decodeOpenAiChatMessages(body.messages, warnings);
  const request: ChatRequest = {
    model,
    system,
    messages,
    tools: decodeOpenAiChatTools(body.tools, warnings),
    stream: readOptionalBoolean(body, 'stream') ?? false,
  };
  const toolChoice = decodeOpenAiChatToolChoice(body.tool_choice, warnings);
  if (toolChoice) request.toolChoice = toolChoice;
  const parallel = readOptionalBoolean(body, 'parallel_tool_calls');
  if (parallel !== undefined) request.parallelToolCalls = parallel;
  const maxTokens = readOptionalInteger(body, 'max_completion_tokens') ?? readOptionalInteger(body, 'max_tokens');
  if (maxTokens !== undefined) request.maxOutputTokens = maxTokens;
  const numbers = [
    ['temperature', 'temperature'],
    ['top_p', 'topP'],
    ['seed', 'seed'],
    ['presence_penalty', 'presencePenalty'],
    ['frequency_penalty', 'frequencyPenalty'],
  ] as const;
  for (const [wire, canonical] of numbers) {
    const value = readOptionalNumber(body, wire);
    if (value !== undefined) request[canonical] = value;
  }
  const n = readOptionalInteger(body, 'n');
  if (n !== undefined) request.candidateCount = n;
  const stop = readStop(body.stop);
  if (stop) request.stopSequences = stop;
  const responseFormat = readResponseFormat(body);
  if (responseFormat) request.responseFormat = responseFormat;
  const effort = readEffort(body);
  if (effort) request.reasoning = { enabled: effort !== 'none', effort };
  const user = readOptionalString(body, 'user');
  if (user !== undefined) request.user = user;
  return { value: request, warnings };
}
