import type { ProtocolId, UpstreamProtocolId } from '../../src/protocols/protocol-codec.ts';
import type { GoldenCase, Mode } from './cases/golden-cases.ts';

/**
 * Where each upstream protocol lives in the golden gateway: one channel per protocol, told
 * apart by the public model name. Anthropic's channel maps its public name to a dated one, so
 * every Anthropic-upstream case also checks the model rewrite. Bedrock's maps it to a Claude
 * inference profile (Claude, so reasoning with signatures, cache points and stop sequences are
 * all in play), reached with a Bedrock API key: SigV4 is checked by the e2e cloud matrix.
 */
export const UPSTREAMS = {
  'openai-chat': { provider: 'openai', publicModel: 'gpt-4o-mini', upstreamModel: 'gpt-4o-mini', supportsResponses: false },
  'openai-responses': { provider: 'openai', publicModel: 'gpt-5-codex', upstreamModel: 'gpt-5-codex', supportsResponses: true },
  'anthropic-messages': { provider: 'anthropic', publicModel: 'claude-sonnet-4-5', upstreamModel: 'claude-sonnet-4-5-20250929', supportsResponses: false },
  'gemini-generate-content': { provider: 'gemini', publicModel: 'gemini-2.5-flash', upstreamModel: 'gemini-2.5-flash', supportsResponses: false },
  'bedrock-converse': {
    provider: 'bedrock',
    publicModel: 'bedrock-claude-sonnet-4-5',
    upstreamModel: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
    supportsResponses: false,
  },
} as const satisfies Record<
  UpstreamProtocolId,
  { provider: 'openai' | 'anthropic' | 'gemini' | 'bedrock'; publicModel: string; upstreamModel: string; supportsResponses: boolean }
>;

/** The golden Bedrock channel's API key (sent as a bearer; the fake upstream checks it). */
export const GOLDEN_BEDROCK_API_KEY = 'ABSKR29sZGVuQmVkcm9ja0FQSUtleTAwMDE=';

export interface GoldenPair {
  client: ProtocolId;
  upstream: UpstreamProtocolId;
  folder: string;
}

const CLIENTS: ProtocolId[] = ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini-generate-content'];
const UPSTREAM_KINDS: UpstreamProtocolId[] = ['openai-chat', 'anthropic-messages', 'gemini-generate-content', 'bedrock-converse'];

/**
 * An Anthropic client never reaches the golden Bedrock channel's Claude through Converse: the
 * gateway takes InvokeModel with Anthropic's own body for it (the native lane, see
 * bedrock-channel.ts), which test/e2e/bedrock-invoke.test.ts covers against the simulator.
 */
const takesAnotherWire = (client: ProtocolId, upstream: UpstreamProtocolId) => client === 'anthropic-messages' && upstream === 'bedrock-converse';

/** Every client × every upstream kind it reaches, plus Responses → Responses through a Responses-capable OpenAI channel. */
export const GOLDEN_PAIRS: GoldenPair[] = CLIENTS.flatMap((client) =>
  [...UPSTREAM_KINDS, ...(client === 'openai-responses' ? (['openai-responses'] as const) : [])]
    .filter((upstream) => !takesAnotherWire(client, upstream))
    .map((upstream) => ({
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
