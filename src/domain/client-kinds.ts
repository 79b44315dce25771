/**
 * The client kinds the gateway teaches set-up for: the specification's base-address table.
 * One source for the gateway (diagnose, `src/access/client-kinds.ts`) and the console
 * (`console/src/lib/client-kinds.ts`, which imports this file), so it imports nothing: the
 * console's build type-checks it in a browser setting.
 */
export const CLIENT_KINDS = [
  'openai-sdk',
  'openai-http',
  'claude-code',
  'anthropic-sdk',
  'gemini-cli',
  'genai-sdk',
  'gemini-http',
  'codex',
  'antigravity',
] as const;

export type ClientKind = (typeof CLIENT_KINDS)[number];

export function isClientKind(value: unknown): value is ClientKind {
  return typeof value === 'string' && (CLIENT_KINDS as readonly string[]).includes(value);
}

/** The wire protocol a client kind speaks (a `ProtocolId`). */
export type ClientProtocol = 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'gemini-generate-content';

interface ClientKindFacts {
  label: string;
  protocol: ClientProtocol;
  /** What to type into the client's base-address box, from the gateway's root address. */
  address(root: string, altPrefix: string): string;
  /** The model list this client reads (path from the root) and how it sends the key. */
  modelList(altPrefix: string): { path: string; header: 'bearer' | 'x-goog-api-key' | 'x-api-key' };
}

const FACTS: Record<ClientKind, ClientKindFacts> = {
  'openai-sdk': {
    label: 'OpenAI SDK or chat-completions client',
    protocol: 'openai-chat',
    address: (root) => `${root}/v1`,
    modelList: () => ({ path: '/v1/models', header: 'bearer' }),
  },
  'openai-http': {
    label: 'Raw HTTP chat completions',
    protocol: 'openai-chat',
    address: (root) => `${root}/v1/chat/completions`,
    modelList: () => ({ path: '/v1/models', header: 'bearer' }),
  },
  'claude-code': {
    label: 'Claude Code',
    protocol: 'anthropic-messages',
    address: (root) => root,
    modelList: () => ({ path: '/v1/models', header: 'bearer' }),
  },
  'anthropic-sdk': {
    label: 'Anthropic SDK',
    protocol: 'anthropic-messages',
    address: (root) => root,
    modelList: () => ({ path: '/v1/models', header: 'x-api-key' }),
  },
  'gemini-cli': {
    label: 'Gemini CLI',
    protocol: 'gemini-generate-content',
    address: (root) => root,
    modelList: () => ({ path: '/v1beta/models', header: 'x-goog-api-key' }),
  },
  'genai-sdk': {
    label: 'Google Gen AI SDK (@google/genai)',
    protocol: 'gemini-generate-content',
    address: (root) => root,
    modelList: () => ({ path: '/v1beta/models', header: 'x-goog-api-key' }),
  },
  'gemini-http': {
    label: 'Raw Gemini HTTP and other tools’ Gemini providers',
    protocol: 'gemini-generate-content',
    address: (root) => `${root}/v1beta`,
    modelList: () => ({ path: '/v1beta/models', header: 'x-goog-api-key' }),
  },
  codex: {
    label: 'Codex CLI (Responses API)',
    protocol: 'openai-responses',
    address: (root) => `${root}/v1`,
    modelList: () => ({ path: '/v1/models', header: 'bearer' }),
  },
  antigravity: {
    label: 'Alternative clients (path prefix)',
    protocol: 'openai-chat',
    address: (root, altPrefix) => `${root}/${altPrefix}/v1`,
    modelList: (altPrefix) => ({ path: `/${altPrefix}/v1/models`, header: 'bearer' }),
  },
};

export function clientLabel(kind: ClientKind): string {
  return FACTS[kind].label;
}

export function clientProtocol(kind: ClientKind): ClientProtocol {
  return FACTS[kind].protocol;
}

export function clientAddress(kind: ClientKind, root: string, altPrefix: string): string {
  return FACTS[kind].address(root, altPrefix);
}

export function clientModelList(kind: ClientKind, altPrefix: string): { path: string; header: 'bearer' | 'x-goog-api-key' | 'x-api-key' } {
  return FACTS[kind].modelList(altPrefix);
}
