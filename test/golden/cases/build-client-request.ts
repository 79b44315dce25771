import type { ProtocolId } from '../../../src/protocols/protocol-codec.ts';
import { WEATHER_TOOL, type GoldenCase, type RequestSpec, type ToolCallSpec, type TurnSpec } from './golden-cases.ts';

/** Wire ids a client of each protocol would have used for earlier tool calls (Gemini clients often send none). */
export function clientCallId(protocol: ProtocolId, index: number): string | undefined {
  switch (protocol) {
    case 'openai-chat':
    case 'openai-responses':
      return `call_hist${index + 1}`;
    case 'anthropic-messages':
      return `toolu_hist${index + 1}`;
    case 'gemini-generate-content':
      return undefined;
    default: {
      const unreachable: never = protocol;
      return unreachable;
    }
  }
}

/** Signatures a client replays with earlier reasoning, each in its own protocol's slot. */
export const HISTORY_SIGNATURE = {
  anthropic: 'EqMBCkgIBhABGAIiQHistoryThinkingSignature0123456789abcdef==',
  gemini: 'CiQBHistoryGeminiThoughtSignature0123456789==',
  responses: 'gAAAAABHistoryEncryptedReasoning0123456789==',
} as const;

const UNKNOWN_TOP_LEVEL = { x_vendor_extension: { trace: true, tags: ['golden'] } };

/** The client body for one case, exactly as that protocol's clients write it. */
export function buildClientRequest(protocol: ProtocolId, goldenCase: GoldenCase, model: string, stream: boolean): Record<string, unknown> {
  switch (protocol) {
    case 'openai-chat':
      return openaiChatRequest(goldenCase, model, stream);
    case 'openai-responses':
      return responsesRequest(goldenCase, model, stream);
    case 'anthropic-messages':
      return anthropicRequest(goldenCase, model, stream);
    case 'gemini-generate-content':
      return geminiRequest(goldenCase);
    default: {
      const unreachable: never = protocol;
      return unreachable;
    }
  }
}

const args = (call: ToolCallSpec) => JSON.stringify(call.arguments);

function openaiChatRequest(goldenCase: GoldenCase, model: string, stream: boolean): Record<string, unknown> {
  const spec = goldenCase.request;
  // A second system instruction arrives as `developer`, as newer OpenAI clients write it.
  const messages: unknown[] = spec.system.map((text, index) => ({ role: index === 0 ? 'system' : 'developer', content: text }));
  for (const turn of spec.turns) messages.push(...openaiChatTurn(turn, spec));
  const body: Record<string, unknown> = { model, messages };
  if (spec.tools) body.tools = [{ type: 'function', function: WEATHER_TOOL }];
  if (spec.maxTokens !== undefined) body.max_tokens = spec.maxTokens;
  if (spec.temperature !== undefined) body.temperature = spec.temperature;
  if (spec.stop) body.stop = spec.stop;
  if (spec.reasoning) body.reasoning_effort = 'medium';
  if (stream) {
    body.stream = true;
    // text-basic shows the default (no usage chunk requested); every other stream asks for usage.
    if (goldenCase.name !== 'text-basic') body.stream_options = { include_usage: true };
  }
  if (spec.unknownFields) Object.assign(body, UNKNOWN_TOP_LEVEL);
  return body;
}

function openaiChatTurn(turn: TurnSpec, spec: RequestSpec): unknown[] {
  switch (turn.role) {
    case 'user': {
      const message: Record<string, unknown> = turn.image
        ? {
            role: 'user',
            content: [
              { type: 'text', text: turn.text },
              { type: 'image_url', image_url: { url: `data:${turn.image.mediaType};base64,${turn.image.data}`, detail: 'low' } },
            ],
          }
        : { role: 'user', content: turn.text };
      if (spec.unknownFields) message.x_message_annotation = 'ignored';
      return [message];
    }
    case 'assistant': {
      const message: Record<string, unknown> = { role: 'assistant', content: turn.text ?? null };
      if (turn.reasoning) message.reasoning_content = turn.reasoning.text;
      if (turn.toolCalls) {
        message.tool_calls = turn.toolCalls.map((call) => ({
          id: clientCallId('openai-chat', call.index),
          type: 'function',
          function: { name: call.name, arguments: args(call) },
        }));
      }
      return [message];
    }
    case 'tool':
      return turn.results.map((result) => ({ role: 'tool', tool_call_id: clientCallId('openai-chat', result.index), content: result.output }));
    default: {
      const unreachable: never = turn;
      return unreachable;
    }
  }
}

function responsesRequest(goldenCase: GoldenCase, model: string, stream: boolean): Record<string, unknown> {
  const spec = goldenCase.request;
  const body: Record<string, unknown> = { model };
  if (spec.system.length > 0) body.instructions = spec.system[0];
  const onlyText = spec.turns.length === 1 && spec.turns[0]?.role === 'user' && !spec.turns[0].image && !spec.unknownFields;
  if (onlyText && spec.system.length <= 1) {
    body.input = (spec.turns[0] as { text: string }).text;
  } else {
    const input: unknown[] = spec.system.slice(1).map((text) => ({ type: 'message', role: 'developer', content: [{ type: 'input_text', text }] }));
    for (const turn of spec.turns) input.push(...responsesTurn(turn, spec));
    body.input = input;
  }
  if (spec.tools) body.tools = [{ type: 'function', ...WEATHER_TOOL, strict: false }];
  if (spec.maxTokens !== undefined) body.max_output_tokens = spec.maxTokens;
  if (spec.temperature !== undefined) body.temperature = spec.temperature;
  // The Responses API has no stop sequences: the stop-sequence case only checks the reply side.
  if (spec.reasoning) {
    body.reasoning = { effort: 'medium', summary: 'auto' };
    body.include = ['reasoning.encrypted_content'];
    body.store = false;
  }
  if (stream) body.stream = true;
  if (spec.unknownFields) Object.assign(body, UNKNOWN_TOP_LEVEL);
  return body;
}

function responsesTurn(turn: TurnSpec, spec: RequestSpec): unknown[] {
  switch (turn.role) {
    case 'user': {
      const content: unknown[] = [{ type: 'input_text', text: turn.text }];
      if (turn.image) content.push({ type: 'input_image', image_url: `data:${turn.image.mediaType};base64,${turn.image.data}`, detail: 'low' });
      const item: Record<string, unknown> = { type: 'message', role: 'user', content };
      if (spec.unknownFields) item.x_item_annotation = 'ignored';
      return [item];
    }
    case 'assistant': {
      const items: unknown[] = [];
      if (turn.reasoning) {
        items.push({
          type: 'reasoning',
          id: 'rs_hist1',
          summary: [{ type: 'summary_text', text: turn.reasoning.text }],
          encrypted_content: HISTORY_SIGNATURE.responses,
        });
      }
      if (turn.text !== undefined) {
        items.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: turn.text, annotations: [] }] });
      }
      for (const call of turn.toolCalls ?? []) {
        items.push({ type: 'function_call', call_id: clientCallId('openai-responses', call.index), name: call.name, arguments: args(call) });
      }
      return items;
    }
    case 'tool':
      return turn.results.map((result) => ({ type: 'function_call_output', call_id: clientCallId('openai-responses', result.index), output: result.output }));
    default: {
      const unreachable: never = turn;
      return unreachable;
    }
  }
}

function anthropicRequest(goldenCase: GoldenCase, model: string, stream: boolean): Record<string, unknown> {
  const spec = goldenCase.request;
  const body: Record<string, unknown> = { model, max_tokens: spec.maxTokens ?? 1024 };
  if (spec.system.length === 1 && !spec.cacheSystem) body.system = spec.system[0];
  else if (spec.system.length > 0) {
    body.system = spec.system.map((text, index) => ({
      type: 'text',
      text,
      ...(spec.cacheSystem && index === spec.system.length - 1 ? { cache_control: { type: 'ephemeral' } } : {}),
    }));
  }
  const messages: Array<{ role: string; content: unknown[] | string }> = [];
  for (const turn of spec.turns) {
    const message = anthropicTurn(turn, spec);
    // Anthropic clients keep strict alternation by joining same-role turns.
    const previous = messages.at(-1);
    if (previous && previous.role === message.role && Array.isArray(previous.content) && Array.isArray(message.content)) {
      previous.content.push(...message.content);
    } else messages.push(message);
  }
  body.messages = messages;
  if (spec.tools) body.tools = [{ name: WEATHER_TOOL.name, description: WEATHER_TOOL.description, input_schema: WEATHER_TOOL.parameters }];
  if (spec.temperature !== undefined) body.temperature = spec.temperature;
  if (spec.stop) body.stop_sequences = spec.stop;
  if (spec.reasoning) body.thinking = { type: 'enabled', budget_tokens: 2048 };
  if (stream) body.stream = true;
  if (spec.unknownFields) Object.assign(body, UNKNOWN_TOP_LEVEL);
  return body;
}

function anthropicTurn(turn: TurnSpec, spec: RequestSpec): { role: string; content: unknown[] | string } {
  switch (turn.role) {
    case 'user': {
      if (!turn.image && !spec.unknownFields && spec.turns.length === 1) return { role: 'user', content: turn.text };
      const content: unknown[] = [];
      if (turn.image) content.push({ type: 'image', source: { type: 'base64', media_type: turn.image.mediaType, data: turn.image.data } });
      content.push({ type: 'text', text: turn.text, ...(spec.unknownFields ? { x_block_annotation: 'ignored' } : {}) });
      return { role: 'user', content };
    }
    case 'assistant': {
      const content: unknown[] = [];
      if (turn.reasoning) content.push({ type: 'thinking', thinking: turn.reasoning.text, signature: HISTORY_SIGNATURE.anthropic });
      if (turn.text !== undefined) content.push({ type: 'text', text: turn.text });
      for (const call of turn.toolCalls ?? []) {
        content.push({ type: 'tool_use', id: clientCallId('anthropic-messages', call.index), name: call.name, input: call.arguments });
      }
      return { role: 'assistant', content };
    }
    case 'tool':
      return {
        role: 'user',
        content: turn.results.map((result) => ({
          type: 'tool_result',
          tool_use_id: clientCallId('anthropic-messages', result.index),
          content: result.output,
        })),
      };
    default: {
      const unreachable: never = turn;
      return unreachable;
    }
  }
}

function geminiRequest(goldenCase: GoldenCase): Record<string, unknown> {
  const spec = goldenCase.request;
  const body: Record<string, unknown> = {
    contents: spec.turns.map((turn) => geminiTurn(turn, spec)),
  };
  if (spec.system.length > 0) body.systemInstruction = { parts: spec.system.map((text) => ({ text })) };
  if (spec.tools)
    body.tools = [
      { functionDeclarations: [{ name: WEATHER_TOOL.name, description: WEATHER_TOOL.description, parametersJsonSchema: WEATHER_TOOL.parameters }] },
    ];
  const config: Record<string, unknown> = {};
  if (spec.maxTokens !== undefined) config.maxOutputTokens = spec.maxTokens;
  if (spec.temperature !== undefined) config.temperature = spec.temperature;
  if (spec.stop) config.stopSequences = spec.stop;
  if (spec.reasoning) config.thinkingConfig = { includeThoughts: true, thinkingBudget: 2048 };
  if (Object.keys(config).length > 0) body.generationConfig = config;
  if (spec.unknownFields) Object.assign(body, UNKNOWN_TOP_LEVEL);
  return body;
}

function geminiTurn(turn: TurnSpec, spec: RequestSpec): unknown {
  switch (turn.role) {
    case 'user': {
      const parts: unknown[] = [{ text: turn.text, ...(spec.unknownFields ? { x_part_annotation: 'ignored' } : {}) }];
      if (turn.image) parts.push({ inlineData: { mimeType: turn.image.mediaType, data: turn.image.data } });
      return { role: 'user', parts };
    }
    case 'assistant': {
      const parts: unknown[] = [];
      if (turn.reasoning) parts.push({ text: turn.reasoning.text, thought: true });
      if (turn.text !== undefined) {
        parts.push({ text: turn.text, ...(turn.reasoning ? { thoughtSignature: HISTORY_SIGNATURE.gemini } : {}) });
      }
      for (const call of turn.toolCalls ?? []) parts.push({ functionCall: { name: call.name, args: call.arguments } });
      return { role: 'model', parts };
    }
    case 'tool':
      return {
        role: 'user',
        parts: turn.results.map((result) => ({ functionResponse: { name: result.name, response: { output: result.output } } })),
      };
    default: {
      const unreachable: never = turn;
      return unreachable;
    }
  }
}
