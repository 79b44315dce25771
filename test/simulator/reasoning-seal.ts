import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * What the simulated providers sign and later verify, the way the real ones do: Anthropic signs
 * each thinking block (over its text), Gemini signs the first function call of a step, OpenAI
 * encrypts reasoning for `store: false`. A per-instance secret makes every value unforgeable by
 * the gateway; scripted signatures (tests that need a known value) are registered as issued.
 */
export interface ReasoningSeal {
  anthropicSignature(thinking: string): string;
  verifyAnthropic(thinking: string, signature: string): boolean;
  redactedData(): string;
  verifyRedacted(data: string): boolean;
  geminiSignature(): string;
  verifyGemini(signature: string): boolean;
  responsesEncrypted(): string;
  verifyResponses(encrypted: string): boolean;
  /** Scripted values the simulator hands out verbatim count as its own. */
  registerScripted(value: string, thinking?: string): void;
  /** Responses: function_call item id → the reasoning item id that must come with it. */
  rememberCall(callItemId: string, reasoningItemId: string): void;
  requiredReasoningFor(callItemId: string): string | undefined;
}

/** Gemini's documented placeholders that skip validation (for history from other models). */
export const GEMINI_SKIP_SIGNATURES = new Set(['skip_thought_signature_validator', 'context_engineering_is_the_way_to_go']);

const MAX_REMEMBERED = 10_000;

export function createReasoningSeal(): ReasoningSeal {
  const secret = randomBytes(32);
  const scripted = new Map<string, string | undefined>();
  const calls = new Map<string, string>();
  const mac = (kind: string, payload: string) => createHmac('sha256', secret).update(`${kind}\0${payload}`).digest();

  // Values look like the real ones (base64; OpenAI's start with gAAAA) and carry a random
  // nonce, so two identical thoughts never share a signature.
  const issue = (kind: string, bound: string, prefix: Buffer) => {
    const nonce = randomBytes(12);
    return Buffer.concat([prefix, nonce, mac(kind, `${nonce.toString('hex')}\0${bound}`)]).toString('base64');
  };
  const check = (kind: string, bound: string, value: string, prefixLength: number) => {
    const raw = Buffer.from(value, 'base64');
    if (raw.length !== prefixLength + 12 + 32 || raw.toString('base64') !== value) return false;
    const nonce = raw.subarray(prefixLength, prefixLength + 12);
    const expected = mac(kind, `${nonce.toString('hex')}\0${bound}`);
    return timingSafeEqual(raw.subarray(prefixLength + 12), expected);
  };
  const ANTHROPIC = Buffer.from('EqQB', 'base64');
  const GEMINI = Buffer.from('CiQB', 'base64');
  const OPENAI = Buffer.from('gAAAAAB', 'base64');
  const isScripted = (value: string, thinking?: string) =>
    scripted.has(value) && (thinking === undefined || scripted.get(value) === undefined || scripted.get(value) === thinking);

  return {
    anthropicSignature: (thinking) => issue('anthropic', thinking, ANTHROPIC),
    verifyAnthropic: (thinking, signature) => isScripted(signature, thinking) || check('anthropic', thinking, signature, ANTHROPIC.length),
    redactedData: () => issue('redacted', '', ANTHROPIC),
    verifyRedacted: (data) => isScripted(data) || check('redacted', '', data, ANTHROPIC.length),
    geminiSignature: () => issue('gemini', '', GEMINI),
    verifyGemini: (signature) => GEMINI_SKIP_SIGNATURES.has(signature) || isScripted(signature) || check('gemini', '', signature, GEMINI.length),
    // The content stands on its own: clients may drop or rewrite the item id around it.
    responsesEncrypted: () => issue('openai', '', OPENAI),
    verifyResponses: (encrypted) => isScripted(encrypted) || check('openai', '', encrypted, OPENAI.length),
    registerScripted: (value, thinking) => {
      scripted.set(value, thinking);
    },
    rememberCall: (callItemId, reasoningItemId) => {
      if (calls.size >= MAX_REMEMBERED) calls.delete(calls.keys().next().value as string);
      calls.set(callItemId, reasoningItemId);
    },
    requiredReasoningFor: (callItemId) => calls.get(callItemId),
  };
}
