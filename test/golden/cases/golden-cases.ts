/**
 * The golden matrix's cases, described once in the gateway's own terms. `build-cases.ts` turns
 * each into a client request per client protocol and a recorded reply per upstream protocol,
 * hand-written in each wire's real shape (not produced by our own encoders, so the codecs are
 * checked against something they did not write).
 */

export type CaseName =
  | 'text-basic'
  | 'system-multi'
  | 'multi-turn'
  | 'image-base64'
  | 'tool-call-single'
  | 'tool-call-parallel'
  | 'tool-result-roundtrip'
  | 'reasoning-with-signature'
  | 'stop-sequence'
  | 'max-tokens-length'
  | 'usage-with-cache'
  | 'upstream-error-429'
  | 'upstream-error-mid-stream'
  | 'unknown-field-tolerated';

export type Mode = 'plain' | 'stream';

export interface ToolCallSpec {
  /** Index of the call within the turn; wire ids are derived per protocol. */
  index: number;
  name: string;
  arguments: Record<string, unknown>;
}

export type TurnSpec =
  | { role: 'user'; text: string; image?: { mediaType: string; data: string } }
  | {
      role: 'assistant';
      reasoning?: { text: string };
      text?: string;
      toolCalls?: ToolCallSpec[];
    }
  | { role: 'tool'; results: Array<{ index: number; name: string; output: string }> };

export interface RequestSpec {
  system: string[];
  /** Mark the (last) system block cacheable where the protocol can say so. */
  cacheSystem?: boolean;
  turns: TurnSpec[];
  tools: boolean;
  stop?: string[];
  maxTokens?: number;
  temperature?: number;
  reasoning?: boolean;
  unknownFields?: boolean;
}

export interface UsageSpec {
  /** Whole prompt, cache included (the canonical convention). */
  input: number;
  /** Everything generated, reasoning included. */
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  reasoning?: number;
}

export interface ReplySpec {
  reasoning?: { text: string };
  text?: string;
  toolCalls?: ToolCallSpec[];
  finish: 'stop' | 'stop-sequence' | 'length' | 'tool-calls';
  stopSequence?: string;
  usage: UsageSpec;
}

export type OutcomeSpec = { kind: 'reply'; reply: ReplySpec } | { kind: 'rate-limited' } | { kind: 'mid-stream-error'; partialText: string };

export interface GoldenCase {
  name: CaseName;
  modes: Mode[];
  request: RequestSpec;
  outcome: OutcomeSpec;
}

/** A 1×1 PNG, the smallest honest image. */
export const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

export const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: {
    type: 'object',
    properties: {
      city: { type: 'string', description: 'City name' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    },
    required: ['city'],
  },
} as const;

const hello = (text = 'Hello!'): TurnSpec[] => [{ role: 'user', text }];
const reply = (text: string, usage: UsageSpec, finish: ReplySpec['finish'] = 'stop'): OutcomeSpec => ({
  kind: 'reply',
  reply: { text, finish, usage },
});

export const GOLDEN_CASES: GoldenCase[] = [
  {
    name: 'text-basic',
    modes: ['plain', 'stream'],
    request: { system: [], turns: hello(), tools: false },
    outcome: reply('Hello! How can I help you today?', { input: 9, output: 10 }),
  },
  {
    name: 'system-multi',
    modes: ['plain'],
    request: { system: ['You are a terse assistant.', 'Always answer in French.'], turns: hello('Say hello.'), tools: false, temperature: 0.2 },
    outcome: reply('Bonjour.', { input: 24, output: 3 }),
  },
  {
    name: 'multi-turn',
    modes: ['plain'],
    request: {
      system: [],
      turns: [
        { role: 'user', text: 'Hi there.' },
        { role: 'user', text: 'My name is Ada.' },
        { role: 'assistant', text: 'Nice to meet you, Ada!' },
        { role: 'user', text: 'What is my name?' },
      ],
      tools: false,
    },
    outcome: reply('Your name is Ada.', { input: 31, output: 6 }),
  },
  {
    name: 'image-base64',
    modes: ['plain'],
    request: { system: [], turns: [{ role: 'user', text: 'What colour is this pixel?', image: { mediaType: 'image/png', data: TINY_PNG } }], tools: false },
    outcome: reply('It is a red pixel.', { input: 270, output: 7 }),
  },
  {
    name: 'tool-call-single',
    modes: ['plain', 'stream'],
    request: { system: [], turns: hello("What's the weather in Paris?"), tools: true },
    outcome: {
      kind: 'reply',
      reply: { toolCalls: [{ index: 0, name: 'get_weather', arguments: { city: 'Paris' } }], finish: 'tool-calls', usage: { input: 82, output: 17 } },
    },
  },
  {
    name: 'tool-call-parallel',
    modes: ['plain', 'stream'],
    request: { system: [], turns: hello('Weather in Paris and in Tokyo, in celsius?'), tools: true },
    outcome: {
      kind: 'reply',
      reply: {
        text: 'Let me check both.',
        toolCalls: [
          { index: 0, name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } },
          { index: 1, name: 'get_weather', arguments: { city: 'Tokyo', unit: 'celsius' } },
        ],
        finish: 'tool-calls',
        usage: { input: 90, output: 41 },
      },
    },
  },
  {
    name: 'tool-result-roundtrip',
    modes: ['plain', 'stream'],
    request: {
      system: [],
      turns: [
        { role: 'user', text: 'Weather in Paris and in Tokyo?' },
        {
          role: 'assistant',
          toolCalls: [
            { index: 0, name: 'get_weather', arguments: { city: 'Paris' } },
            { index: 1, name: 'get_weather', arguments: { city: 'Tokyo' } },
          ],
        },
        {
          role: 'tool',
          results: [
            { index: 0, name: 'get_weather', output: '{"temperature":18,"conditions":"sunny"}' },
            { index: 1, name: 'get_weather', output: '{"temperature":24,"conditions":"rain"}' },
          ],
        },
      ],
      tools: true,
    },
    outcome: reply('Paris: 18 °C and sunny. Tokyo: 24 °C with rain.', { input: 140, output: 18 }),
  },
  {
    name: 'reasoning-with-signature',
    modes: ['plain', 'stream'],
    request: {
      system: [],
      turns: [
        { role: 'user', text: 'What is 17 * 23?' },
        { role: 'assistant', reasoning: { text: '17 * 23 = 340 + 51 = 391.' }, text: '391.' },
        { role: 'user', text: 'And plus 9?' },
      ],
      tools: false,
      reasoning: true,
      maxTokens: 4096,
    },
    outcome: {
      kind: 'reply',
      reply: {
        reasoning: { text: 'The previous result was 391; 391 + 9 = 400.' },
        text: '400.',
        finish: 'stop',
        usage: { input: 60, output: 52, reasoning: 45 },
      },
    },
  },
  {
    name: 'stop-sequence',
    modes: ['plain', 'stream'],
    request: { system: [], turns: hello('Count to five, then write END.'), tools: false, stop: ['END'] },
    outcome: { kind: 'reply', reply: { text: '1, 2, 3, 4, 5, ', finish: 'stop-sequence', stopSequence: 'END', usage: { input: 15, output: 10 } } },
  },
  {
    name: 'max-tokens-length',
    modes: ['plain', 'stream'],
    request: { system: [], turns: hello('Tell me a long story.'), tools: false, maxTokens: 12 },
    outcome: reply('Once upon a time, in a land far away, there lived', { input: 13, output: 12 }, 'length'),
  },
  {
    name: 'usage-with-cache',
    modes: ['plain', 'stream'],
    request: {
      system: ['You are the support assistant for Switchyard. The product manual follows. (imagine 2000 tokens here)'],
      cacheSystem: true,
      turns: hello('How do I add a channel?'),
      tools: false,
    },
    outcome: reply('Open the console and choose Channels, then Add.', { input: 2100, output: 12, cacheRead: 1800, cacheWrite: 200 }),
  },
  {
    name: 'upstream-error-429',
    modes: ['plain', 'stream'],
    request: { system: [], turns: hello(), tools: false },
    outcome: { kind: 'rate-limited' },
  },
  {
    name: 'upstream-error-mid-stream',
    modes: ['stream'],
    request: { system: [], turns: hello('Write a haiku.'), tools: false },
    outcome: { kind: 'mid-stream-error', partialText: 'Autumn moonlight, a worm' },
  },
  {
    name: 'unknown-field-tolerated',
    modes: ['plain'],
    request: { system: [], turns: hello(), tools: false, unknownFields: true },
    outcome: reply('Hello! How can I help you today?', { input: 9, output: 10 }),
  },
];
