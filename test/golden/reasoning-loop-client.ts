import type { ProtocolId } from '../../src/protocols/protocol-codec.ts';

/**
 * A minimal agent per client protocol, written from the wire (not from the gateway's codecs):
 * it asks with reasoning on and one tool, keeps the assistant turn exactly as that protocol's
 * clients keep it (streamed or not), runs the tool and sends the result back.
 */
type Json = Record<string, any>;

export const TOOL_OUTPUT = 'notes.txt says: hello';
const QUESTION = 'What does notes.txt say?';

export interface ClientCall {
  path: string;
  headers: Record<string, string>;
  body: Json;
}

export interface AssistantTurn {
  /** The assistant turn in the client's own history shape. */
  history: Json[];
  callId: string;
  callName: string;
  text: string;
}

function sseData(text: string): Json[] {
  const events: Json[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (data === '' || data === '[DONE]') continue;
    events.push(JSON.parse(data));
  }
  return events;
}

export function firstCall(client: ProtocolId, model: string, stream: boolean, key: string): ClientCall {
  return buildCall(client, model, stream, key, []);
}

export function secondCall(client: ProtocolId, model: string, stream: boolean, key: string, turn: AssistantTurn): ClientCall {
  return buildCall(client, model, stream, key, [...turn.history, ...toolResult(client, turn)]);
}

function toolResult(client: ProtocolId, turn: AssistantTurn): Json[] {
  switch (client) {
    case 'anthropic-messages':
      return [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: turn.callId, content: TOOL_OUTPUT }] }];
    case 'gemini-generate-content':
      return [
        {
          role: 'user',
          parts: [{ functionResponse: { ...(turn.callId === '' ? {} : { id: turn.callId }), name: turn.callName, response: { output: TOOL_OUTPUT } } }],
        },
      ];
    case 'openai-responses':
      return [{ type: 'function_call_output', call_id: turn.callId, output: TOOL_OUTPUT }];
    case 'openai-chat':
      return [{ role: 'tool', tool_call_id: turn.callId, content: TOOL_OUTPUT }];
    default:
      throw new Error(client);
  }
}

const SCHEMA = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };

function buildCall(client: ProtocolId, model: string, stream: boolean, key: string, history: Json[]): ClientCall {
  const json = { 'content-type': 'application/json' };
  switch (client) {
    case 'anthropic-messages':
      return {
        path: '/v1/messages',
        headers: { ...json, 'x-api-key': key, 'anthropic-version': '2023-06-01' },
        body: {
          model,
          max_tokens: 4096,
          stream,
          thinking: { type: 'enabled', budget_tokens: 1024 },
          tools: [{ name: 'read_file', description: 'Reads a file', input_schema: SCHEMA }],
          messages: [{ role: 'user', content: QUESTION }, ...history],
        },
      };
    case 'gemini-generate-content':
      return {
        path: `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
        headers: { ...json, 'x-goog-api-key': key },
        body: {
          contents: [{ role: 'user', parts: [{ text: QUESTION }] }, ...history],
          tools: [{ functionDeclarations: [{ name: 'read_file', description: 'Reads a file', parameters: SCHEMA }] }],
          generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } },
        },
      };
    case 'openai-responses':
      return {
        path: '/v1/responses',
        headers: { ...json, authorization: `Bearer ${key}` },
        body: {
          model,
          stream,
          store: false,
          include: ['reasoning.encrypted_content'],
          reasoning: { effort: 'high', summary: 'auto' },
          tools: [{ type: 'function', name: 'read_file', description: 'Reads a file', parameters: SCHEMA, strict: false }],
          input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: QUESTION }] }, ...history],
        },
      };
    case 'openai-chat':
      return {
        path: '/v1/chat/completions',
        headers: { ...json, authorization: `Bearer ${key}` },
        body: {
          model,
          stream,
          reasoning_effort: 'high',
          tools: [{ type: 'function', function: { name: 'read_file', description: 'Reads a file', parameters: SCHEMA } }],
          messages: [{ role: 'user', content: QUESTION }, ...history],
        },
      };
    default:
      throw new Error(client);
  }
}

/** Reads the reply the way the protocol's clients do and keeps the assistant turn. */
export function readTurn(client: ProtocolId, stream: boolean, text: string): AssistantTurn {
  switch (client) {
    case 'anthropic-messages':
      return anthropicTurn(stream ? anthropicFromStream(text) : JSON.parse(text).content);
    case 'gemini-generate-content': {
      const chunks = stream ? sseData(text) : [JSON.parse(text)];
      const parts = chunks.flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? []);
      const call = parts.find((part: Json) => part.functionCall)?.functionCall;
      return {
        history: [{ role: 'model', parts }],
        callId: call?.id ?? '',
        callName: call?.name ?? '',
        text: parts
          .filter((part: Json) => typeof part.text === 'string' && !part.thought)
          .map((part: Json) => part.text)
          .join(''),
      };
    }
    case 'openai-responses': {
      const output: Json[] = stream
        ? sseData(text)
            .filter((event) => event.type === 'response.output_item.done')
            .map((event) => event.item)
        : JSON.parse(text).output;
      const call = output.find((item) => item.type === 'function_call');
      return {
        history: output,
        callId: call?.call_id ?? '',
        callName: call?.name ?? '',
        text: output
          .filter((item) => item.type === 'message')
          .flatMap((item) => item.content)
          .map((part: Json) => part.text)
          .join(''),
      };
    }
    case 'openai-chat': {
      const message = stream ? chatFromStream(text) : JSON.parse(text).choices[0].message;
      const call = message.tool_calls?.[0];
      const kept: Json = { role: 'assistant', content: message.content ?? null };
      if (message.tool_calls) kept.tool_calls = message.tool_calls;
      if (message.reasoning_details) kept.reasoning_details = message.reasoning_details;
      return { history: [kept], callId: call?.id ?? '', callName: call?.function?.name ?? '', text: message.content ?? '' };
    }
    default:
      throw new Error(client);
  }
}

function anthropicTurn(content: Json[]): AssistantTurn {
  const call = content.find((block) => block.type === 'tool_use');
  return {
    history: [{ role: 'assistant', content }],
    callId: call?.id ?? '',
    callName: call?.name ?? '',
    text: content
      .filter((block) => block.type === 'text')
      .map((block) => block.text)
      .join(''),
  };
}

function anthropicFromStream(text: string): Json[] {
  const blocks: Json[] = [];
  const partial = new Map<number, string>();
  for (const event of sseData(text)) {
    if (event.type === 'content_block_start') blocks[event.index] = { ...event.content_block };
    if (event.type === 'content_block_delta') {
      const block = blocks[event.index]!;
      const delta = event.delta;
      if (delta.type === 'text_delta') block.text += delta.text;
      if (delta.type === 'thinking_delta') block.thinking += delta.thinking;
      if (delta.type === 'signature_delta') block.signature = delta.signature;
      if (delta.type === 'input_json_delta') partial.set(event.index, (partial.get(event.index) ?? '') + delta.partial_json);
    }
    if (event.type === 'content_block_stop' && blocks[event.index]?.type === 'tool_use') {
      blocks[event.index]!.input = JSON.parse(partial.get(event.index) || '{}');
    }
  }
  return blocks;
}

function chatFromStream(text: string): Json {
  const message: Json = { role: 'assistant', content: null };
  const calls: Json[] = [];
  const details: Json[] = [];
  for (const chunk of sseData(text)) {
    const delta = chunk.choices?.[0]?.delta;
    if (!delta) continue;
    if (typeof delta.content === 'string' && delta.content !== '') message.content = (message.content ?? '') + delta.content;
    if (Array.isArray(delta.reasoning_details)) details.push(...delta.reasoning_details);
    for (const call of delta.tool_calls ?? []) {
      const known = calls[call.index] ?? (calls[call.index] = { id: call.id, type: 'function', function: { name: '', arguments: '' } });
      if (call.function?.name) known.function.name = call.function.name;
      if (call.function?.arguments) known.function.arguments += call.function.arguments;
    }
  }
  if (calls.length > 0) message.tool_calls = calls;
  if (details.length > 0) message.reasoning_details = details;
  return message;
}

/** What a client that keeps no opaque reasoning sends back: thinking, signatures and encrypted items removed. */
export function stripReasoning(client: ProtocolId, turn: AssistantTurn): AssistantTurn {
  const history = structuredClone(turn.history);
  switch (client) {
    case 'anthropic-messages':
      history[0]!.content = history[0]!.content.filter((block: Json) => block.type !== 'thinking' && block.type !== 'redacted_thinking');
      break;
    case 'gemini-generate-content':
      history[0]!.parts = history[0]!.parts
        .filter((part: Json) => !part.thought && !(part.text === '' && part.thoughtSignature))
        .map(({ thoughtSignature: _dropped, ...part }: Json) => part);
      break;
    case 'openai-responses':
      return { ...turn, history: history.filter((item) => item.type !== 'reasoning') };
    case 'openai-chat':
      delete history[0]!.reasoning_details;
      break;
    default:
      throw new Error(client);
  }
  return { ...turn, history };
}

/** Flips one character inside every opaque value the gateway handed out. */
export function tamperReasoning(turn: AssistantTurn): AssistantTurn {
  const text = JSON.stringify(turn.history).replace(
    /"(U1lSA[A-Za-z0-9+/]{20})([A-Za-z0-9+/])/g,
    (_match, head: string, next: string) => `"${head}${next === 'A' ? 'B' : 'A'}`,
  );
  return { ...turn, history: JSON.parse(text) };
}
