import type { ProtocolId } from '../../src/protocols/protocol-codec.ts';
import type { GoldenCase, Mode } from './cases/golden-cases.ts';

/**
 * Where each upstream protocol lives in the golden gateway: one channel per protocol, told
 * apart by the public model name. Anthropic's channel maps its public name to a dated one, so
 * every Anthropic-upstream case also checks the model rewrite.
 */
export const UPSTREAMS = {
  'openai-chat': { provider: 'openai', publicModel: 'gpt-4o-mini', upstreamModel: 'gpt-4o-mini', supportsResponses: false },
  'openai-responses': { provider: 'openai', publicModel: 'gpt-5-codex', upstreamModel: 'gpt-5-codex', supportsResponses: true },
  'anthropic-messages': { provider: 'anthropic', publicModel: 'claude-sonnet-4-5', upstreamModel: 'claude-sonnet-4-5-20250929', supportsResponses: false },
  'gemini-generate-content': { provider: 'gemini', publicModel: 'gemini-2.5-flash', upstreamModel: 'gemini-2.5-flash', supportsResponses: false },
} as const satisfies Record<ProtocolId, { provider: 'openai' | 'anthropic' | 'gemini'; publicModel: string; upstreamModel: string; supportsResponses: boolean }>;

export interface GoldenPair {
  client: ProtocolId;
  upstream: ProtocolId;
  folder: string;
}

const CLIENTS: ProtocolId[] = ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini-generate-content'];
const UPSTREAM_KINDS: ProtocolId[] = ['openai-chat', 'anthropic-messages', 'gemini-generate-content'];

/** Every client × every upstream kind, plus Responses → Responses through a Responses-capable OpenAI channel. */
export const GOLDEN_PAIRS: GoldenPair[] = CLIENTS.flatMap((client) =>
  [...UPSTREAM_KINDS, ...(client === 'openai-responses' ? (['openai-responses'] as const) : [])].map((upstream) => ({
    client,
    upstream,
    folder: `${client}__${upstream}`,
  })),
);

/** `text-basic` and `text-basic-stream`; a case with a single mode keeps its plain name. */
export function caseFolder(goldenCase: GoldenCase, mode: Mode): string {
  return goldenCase.modes.length > 1 && mode === 'stream' ? `${goldenCase.name}-stream` : goldenCase.name;
}

export interface CaseFile {
  stream: boolean;
  /** HTTP status of the recorded upstream reply, and the status the client must see (absent = 200). */
  status?: number;
  /** The `x-switchyard-warnings` the client must see, in order. */
  expectWarnings?: string[];
}
