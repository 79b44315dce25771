import type { ChatRequest, ReasoningConfig, ReasoningEffort, TextPart } from '../../core/chat-request.ts';
import { invalidRequest } from '../../core/gateway-error.ts';
import type { Warning } from '../../core/warning.ts';
import type { ClientRequestInput, Decoded } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';
import { decodeAnthropicMessages, decodeAnthropicText } from './decode-anthropic-messages.ts';
import { decodeAnthropicToolChoice, decodeAnthropicTools } from './decode-anthropic-tools.ts';

/** Claude Code's first system block is attribution for Anthropic's billing, not instructions. */
const BILLING_HEADER_PREFIX = 'x-anthropic-billing-header:';

const EFFORTS: ReadonlySet<string> = new Set<ReasoningEffort>(['low', 'medium', 'high', 'xhigh', 'max']);

function readNumber(body: Record<string, unknown>, field: string): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw invalidRequest(`"${field}" must be a number.`, field);
  }
  return value;
}

function decodeSystem(raw: unknown): TextPart[] {
  if (raw === undefined || raw === null) return [];
  if (typeof raw === 'string') return raw === '' ? [] : [{ type: 'text', text: raw }];
  if (!Array.isArray(raw)) throw invalidRequest('"system" must be a string or an array of text blocks.', 'system');
  const parts: TextPart[] = [];
  raw.forEach((block, index) => {
    const param = `system.${index}`;
    if (!isRecord(block)) throw invalidRequest(`${param} must be a text block object.`, param);
    if (block.type !== 'text') throw invalidRequest(`${param}.type must be "text".`, `${param}.type`);
    const part = decodeAnthropicText(block, param);
    if (!part.text.startsWith(BILLING_HEADER_PREFIX)) parts.push(part);
  });
  return parts;
}

function decodeReasoning(thinking: unknown, effort: unknown, warnings: Warning[]): ReasoningConfig | undefined {
  let reasoning: ReasoningConfig | undefined;
  if (thinking !== undefined && thinking !== null) {
    if (!isRecord(thinking)) throw invalidRequest('"thinking" must be an object with a "type".', 'thinking');
    switch (thinking.type) {
      case 'enabled':
        reasoning = { enabled: true };
        if (typeof thinking.budget_tokens === 'number') reasoning.budgetTokens = thinking.budget_tokens;
        break;
      case 'adaptive':
        reasoning = { enabled: true };
        break;
      case 'disabled':
        reasoning = { enabled: false };
        break;
      default:
        throw invalidRequest('thinking.type must be "enabled", "adaptive" or "disabled".', 'thinking.type');
    }
  }
  if (effort === undefined || effort === null) return reasoning;
  if (typeof effort !== 'string' || !EFFORTS.has(effort)) {
    warnings.push({ type: 'unsupported', feature: 'effort', detail: `Unknown output_config.effort ${JSON.stringify(effort)} ignored.` });
    return reasoning;
  }
  // Effort without a thinking config still asks for reasoning effort (OpenAI's reasoning_effort).
  return { ...(reasoning ?? { enabled: true }), effort: effort as ReasoningEffort };
}

function decodeOutputConfig(raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null) return {};
  if (!isRecord(raw)) throw invalidRequest('"output_config" must be an object.', 'output_config');
  return raw;
}

/** Anthropic Messages body → canonical request. Tolerates unknown fields; throws on junk. */
export function decodeAnthropicRequest(input: ClientRequestInput): Decoded<ChatRequest> {
  const body = input.body;
  if (!isRecord(body)) throw invalidRequest('The request body must be a JSON object.', 'body');
  if (typeof body.model !== 'string' || body.model === '') {
    throw invalidRequest('"model" is required and must be a string.', 'model');
  }
  const warnings: Warning[] = [];
  const outputConfig = decodeOutputConfig(body.output_config);
  const system = decodeSystem(body.system);
  const request: ChatRequest = {
    model: body.model,
    system,
    messages: decodeAnthropicMessages(body.messages, warnings, system),
    tools: decodeAnthropicTools(body.tools, warnings),
    stream: body.stream === true,
  };
  const choice = decodeAnthropicToolChoice(body.tool_choice);
  if (choice.toolChoice) request.toolChoice = choice.toolChoice;
  if (choice.parallelToolCalls !== undefined) request.parallelToolCalls = choice.parallelToolCalls;

  const maxTokens = readNumber(body, 'max_tokens');
  if (maxTokens !== undefined) request.maxOutputTokens = maxTokens;
  const temperature = readNumber(body, 'temperature');
  if (temperature !== undefined) request.temperature = temperature;
  const topP = readNumber(body, 'top_p');
  if (topP !== undefined) request.topP = topP;
  const topK = readNumber(body, 'top_k');
  if (topK !== undefined) request.topK = topK;

  if (body.stop_sequences !== undefined && body.stop_sequences !== null) {
    if (!Array.isArray(body.stop_sequences) || !body.stop_sequences.every((s) => typeof s === 'string')) {
      throw invalidRequest('"stop_sequences" must be an array of strings.', 'stop_sequences');
    }
    if (body.stop_sequences.length > 0) request.stopSequences = body.stop_sequences as string[];
  }
  if (isRecord(body.metadata) && typeof body.metadata.user_id === 'string') request.user = body.metadata.user_id;

  const reasoning = decodeReasoning(body.thinking, outputConfig.effort, warnings);
  if (reasoning) request.reasoning = reasoning;

  // Claude Code sends context editing (clearing old tool results); another upstream has nothing like it.
  if (body.context_management !== undefined && body.context_management !== null) {
    warnings.push({
      type: 'unsupported',
      feature: 'context_management',
      detail: 'Anthropic context editing (context_management) has no equivalent on this upstream; the whole context was sent.',
    });
  }
  const format = outputConfig.format;
  if (isRecord(format)) {
    if (format.type === 'json_schema' && isRecord(format.schema)) {
      request.responseFormat = { type: 'json', schema: format.schema };
    } else {
      warnings.push({ type: 'unsupported', feature: 'output-format', detail: 'output_config.format without a json_schema was ignored.' });
    }
  }
  return { value: request, warnings };
}
