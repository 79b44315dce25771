/**
 * The systems under test and how a client of each dialect calls them. Every target is called
 * with the same profile names (see upstream-payloads.ts), so one workload means the same
 * upstream behaviour whichever path the request takes.
 */
export type ClientDialect = 'openai' | 'anthropic' | 'gemini';

export interface Target {
  id: string;
  label: string;
  baseUrl: string;
  client: ClientDialect;
  /** Prefix of the model name: `oa` routes to the OpenAI channel, `an` to the Anthropic one. */
  modelPrefix: 'oa' | 'an';
  headers: Record<string, string>;
  /** The pid whose process tree is the system under test (none for direct). */
  pid: number | undefined;
}

export interface BenchRequest {
  origin: string;
  path: string;
  method: 'POST';
  headers: Record<string, string>;
  body: string;
}

export interface Workload {
  /** Profile name: s0, s20, l0, sa, sb, sc. */
  profile: string;
  /** Approximate request body size in bytes. */
  requestBytes: number;
  stream: boolean;
}

const PROMPT_WORD = 'benchmark ';

function prompt(bytes: number): string {
  // The envelope is about 90 bytes; the rest is the user's text.
  return PROMPT_WORD.repeat(Math.max(1, Math.round((bytes - 90) / PROMPT_WORD.length))).trimEnd();
}

export function buildRequest(target: Target, workload: Workload): BenchRequest {
  const model = `${target.modelPrefix}-${workload.profile}`;
  const text = prompt(workload.requestBytes);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...target.headers };
  switch (target.client) {
    case 'openai':
      return {
        origin: target.baseUrl,
        path: '/v1/chat/completions',
        method: 'POST',
        headers,
        body: JSON.stringify({ model, messages: [{ role: 'user', content: text }], max_tokens: 256, ...(workload.stream ? { stream: true } : {}) }),
      };
    case 'anthropic':
      return {
        origin: target.baseUrl,
        path: '/v1/messages',
        method: 'POST',
        headers: { 'anthropic-version': '2023-06-01', ...headers },
        body: JSON.stringify({ model, max_tokens: 256, messages: [{ role: 'user', content: text }], ...(workload.stream ? { stream: true } : {}) }),
      };
    case 'gemini':
      return {
        origin: target.baseUrl,
        path: `/v1beta/models/${model}:${workload.stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
        method: 'POST',
        headers,
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text }] }], generationConfig: { maxOutputTokens: 256 } }),
      };
    default: {
      const unreachable: never = target.client;
      return unreachable;
    }
  }
}

/** Authentication headers of each client dialect. */
export function clientAuth(client: ClientDialect, key: string): Record<string, string> {
  switch (client) {
    case 'openai':
      return { authorization: `Bearer ${key}` };
    case 'anthropic':
      return { 'x-api-key': key };
    case 'gemini':
      return { 'x-goog-api-key': key };
    default: {
      const unreachable: never = client;
      return unreachable;
    }
  }
}
