import Anthropic from '@anthropic-ai/sdk';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { GoogleGenAI, type Content, type Part } from '@google/genai';
import { generateText, jsonSchema, stepCountIs, streamText, tool, type LanguageModel } from 'ai';
import OpenAI from 'openai';

/**
 * The clients of the SDK reasoning loop (sdk-reasoning-loop.test.ts), each used the way its own
 * documentation shows a tool loop with reasoning on: call, run the tool the model asked for, send
 * the whole assistant turn back as the SDK returned it plus the tool result, until a final answer.
 */
export const SECRET = 'ZEBRA-7731';
export const TOOL_NAME = 'read_notes';
export const PROMPT = 'Read notes.txt with the read_notes tool and tell me what it says.';
const DESCRIPTION = 'Reads a file from the notes folder.';
const SCHEMA = { type: 'object', properties: { file: { type: 'string' } }, required: ['file'], additionalProperties: false } as const;
const MAX_STEPS = 4;

export type ClientProtocol = 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'gemini-generate-content';

export interface LoopTarget {
  /** The gateway's root address. */
  url: string;
  key: string;
  stream: boolean;
}

export interface LoopClient {
  name: string;
  protocol: ClientProtocol;
  /** A public model name the client recognises as a reasoning model. */
  model: string;
  /** Runs the loop to its final answer and returns that answer's text. */
  run(target: LoopTarget): Promise<string>;
}

export const CLIENT_MODELS = { openai: 'gpt-5', anthropic: 'claude-sonnet-4-6', gemini: 'gemini-3-pro-preview' } as const;

const noFinalAnswer = (name: string) => new Error(`${name}: no final answer after ${MAX_STEPS} steps`);

const openaiChat: LoopClient = {
  name: 'openai SDK chat',
  protocol: 'openai-chat',
  model: CLIENT_MODELS.openai,
  async run({ url, key, stream }) {
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: key, maxRetries: 0 });
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: PROMPT }];
    const tools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: TOOL_NAME, description: DESCRIPTION, parameters: SCHEMA } }];
    for (let step = 0; step < MAX_STEPS; step += 1) {
      const body = { model: this.model, messages, tools, reasoning_effort: 'high' as const };
      const completion = stream ? await client.chat.completions.stream(body).finalChatCompletion() : await client.chat.completions.create(body);
      const message = completion.choices[0]!.message;
      // The assistant message as received (with whatever reasoning_details it carries) goes back.
      messages.push(message as OpenAI.ChatCompletionAssistantMessageParam);
      const calls = (message.tool_calls ?? []).filter((call) => call.type === 'function');
      if (calls.length === 0) return message.content ?? '';
      for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, content: SECRET });
    }
    throw noFinalAnswer(this.name);
  },
};

const openaiResponses: LoopClient = {
  name: 'openai SDK responses',
  protocol: 'openai-responses',
  model: CLIENT_MODELS.openai,
  async run({ url, key, stream }) {
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: key, maxRetries: 0 });
    const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: PROMPT }];
    const tools: OpenAI.Responses.Tool[] = [{ type: 'function', name: TOOL_NAME, description: DESCRIPTION, parameters: SCHEMA, strict: false }];
    for (let step = 0; step < MAX_STEPS; step += 1) {
      const body = {
        model: this.model,
        input,
        tools,
        reasoning: { effort: 'high' as const },
        store: false,
        include: ['reasoning.encrypted_content' as const],
      };
      const response = stream ? await client.responses.stream(body).finalResponse() : await client.responses.create(body);
      // OpenAI's guide: append the whole output (reasoning items included), then the results.
      input.push(...(response.output as unknown as OpenAI.Responses.ResponseInputItem[]));
      const callIds = (response.output as OpenAI.Responses.ResponseOutputItem[]).flatMap((item) => (item.type === 'function_call' ? [item.call_id] : []));
      if (callIds.length === 0) {
        return response.output
          .flatMap((item) => (item.type === 'message' ? item.content : []))
          .map((part) => (part.type === 'output_text' ? part.text : ''))
          .join('');
      }
      for (const callId of callIds) input.push({ type: 'function_call_output', call_id: callId, output: SECRET });
    }
    throw noFinalAnswer(this.name);
  },
};

const anthropicSdk: LoopClient = {
  name: 'anthropic SDK',
  protocol: 'anthropic-messages',
  model: CLIENT_MODELS.anthropic,
  async run({ url, key, stream }) {
    const client = new Anthropic({ baseURL: url, apiKey: key, maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: PROMPT }];
    for (let step = 0; step < MAX_STEPS; step += 1) {
      const body = {
        model: this.model,
        max_tokens: 4096,
        thinking: { type: 'enabled' as const, budget_tokens: 2048 },
        tools: [{ name: TOOL_NAME, description: DESCRIPTION, input_schema: SCHEMA as unknown as Anthropic.Tool.InputSchema }],
        messages,
      };
      const message = stream ? await client.messages.stream(body).finalMessage() : await client.messages.create(body);
      messages.push({ role: 'assistant', content: message.content });
      const uses = message.content.filter((block) => block.type === 'tool_use');
      if (uses.length === 0) return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      messages.push({ role: 'user', content: uses.map((use) => ({ type: 'tool_result' as const, tool_use_id: use.id, content: SECRET })) });
    }
    throw noFinalAnswer(this.name);
  },
};

const genai: LoopClient = {
  name: '@google/genai',
  protocol: 'gemini-generate-content',
  model: CLIENT_MODELS.gemini,
  async run({ url, key, stream }) {
    const client = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: url, apiVersion: 'v1beta' } });
    const contents: Content[] = [{ role: 'user', parts: [{ text: PROMPT }] }];
    const config = {
      tools: [{ functionDeclarations: [{ name: TOOL_NAME, description: DESCRIPTION, parametersJsonSchema: SCHEMA }] }],
      thinkingConfig: { includeThoughts: true },
    };
    for (let step = 0; step < MAX_STEPS; step += 1) {
      let parts: Part[] = [];
      if (stream) {
        for await (const chunk of await client.models.generateContentStream({ model: this.model, contents, config })) {
          parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
        }
      } else {
        const response = await client.models.generateContent({ model: this.model, contents, config });
        parts = response.candidates?.[0]?.content?.parts ?? [];
      }
      // The model's turn goes back whole: thought signatures ride on its parts.
      contents.push({ role: 'model', parts });
      const calls = parts.filter((part) => part.functionCall !== undefined);
      if (calls.length === 0) return parts.map((part) => (part.thought === true ? '' : (part.text ?? ''))).join('');
      contents.push({
        role: 'user',
        parts: calls.map((part) => ({
          functionResponse: {
            name: part.functionCall!.name ?? TOOL_NAME,
            ...(part.functionCall!.id ? { id: part.functionCall!.id } : {}),
            response: { content: SECRET },
          },
        })),
      });
    }
    throw noFinalAnswer(this.name);
  },
};

/** One AI SDK provider: generateText / streamText with the tool and a step limit, as its docs show. */
function aiSdk(
  name: string,
  protocol: ClientProtocol,
  model: string,
  language: (target: LoopTarget) => LanguageModel,
  providerOptions: Record<string, Record<string, unknown>>,
): LoopClient {
  return {
    name,
    protocol,
    model,
    async run(target) {
      const tools = {
        [TOOL_NAME]: tool({
          description: DESCRIPTION,
          inputSchema: jsonSchema<{ file: string }>(SCHEMA as never),
          execute: async () => SECRET,
        }),
      };
      // The JSON values the providers' option schemas take.
      const call = {
        model: language(target),
        prompt: PROMPT,
        tools,
        stopWhen: stepCountIs(MAX_STEPS),
        maxRetries: 0,
        providerOptions: providerOptions as never,
      };
      if (!target.stream) return (await generateText(call)).text;
      let failure: unknown;
      const result = streamText({ ...call, onError: ({ error }) => void (failure = error) });
      let text: string;
      try {
        text = await result.text;
      } catch (error) {
        throw failure ?? error;
      }
      if (failure !== undefined) throw failure;
      return text;
    },
  };
}

const openaiProvider = ({ url, key }: LoopTarget) => createOpenAI({ baseURL: `${url}/v1`, apiKey: key });

export const LOOP_CLIENTS: LoopClient[] = [
  openaiChat,
  openaiResponses,
  anthropicSdk,
  genai,
  aiSdk('@ai-sdk/openai chat', 'openai-chat', CLIENT_MODELS.openai, (target) => openaiProvider(target).chat(CLIENT_MODELS.openai), {
    openai: { reasoningEffort: 'high' },
  }),
  aiSdk('@ai-sdk/openai responses', 'openai-responses', CLIENT_MODELS.openai, (target) => openaiProvider(target).responses(CLIENT_MODELS.openai), {
    openai: { reasoningEffort: 'high', store: false },
  }),
  // The provider's default, store on: it sends earlier reasoning back as item_reference ids.
  aiSdk('@ai-sdk/openai responses, store on', 'openai-responses', CLIENT_MODELS.openai, (target) => openaiProvider(target).responses(CLIENT_MODELS.openai), {
    openai: { reasoningEffort: 'high' },
  }),
  aiSdk(
    '@ai-sdk/anthropic',
    'anthropic-messages',
    CLIENT_MODELS.anthropic,
    ({ url, key }) => createAnthropic({ baseURL: `${url}/v1`, apiKey: key })(CLIENT_MODELS.anthropic),
    { anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } },
  ),
  aiSdk(
    '@ai-sdk/google',
    'gemini-generate-content',
    CLIENT_MODELS.gemini,
    ({ url, key }) => createGoogleGenerativeAI({ baseURL: `${url}/v1beta`, apiKey: key })(CLIENT_MODELS.gemini),
    { google: { thinkingConfig: { includeThoughts: true } } },
  ),
];
