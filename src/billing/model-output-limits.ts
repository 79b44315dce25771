/**
 * Output tokens reserved for a request that sets no output cap, for a model this table does
 * not know (RESERVE_OUTPUT_TOKENS). Above most chat models' maximum; an operator serving a
 * model that can write more should raise it (or add the model here).
 */
export const DEFAULT_RESERVED_OUTPUT_TOKENS = 32_768;

/**
 * The most a model family can write in one reply, as its provider documents it (with the
 * extended-output betas a passthrough client may send, e.g. Claude 3.7's 128k). First match
 * wins, so longer prefixes come first. A reservation against this cannot be low for a
 * request without its own cap: the reply cannot settle above what was held.
 */
const FAMILY_MAX_OUTPUT: ReadonlyArray<readonly [RegExp, number]> = [
  [/^gpt-5/, 128_000],
  [/^o\d/, 100_000],
  [/^gpt-4\.1/, 32_768],
  [/^(gpt-4o|chatgpt-4o)/, 16_384],
  [/^gpt-4/, 8_192],
  [/^gpt-3\.5/, 4_096],
  [/^claude-3-7-sonnet/, 128_000],
  [/^claude-(sonnet|haiku|opus)-4/, 64_000],
  [/^claude-(3-5|3\.5)/, 8_192],
  [/^claude-3/, 4_096],
  [/^gemini-(2\.5|3)/, 65_536],
  [/^gemini-/, 8_192],
  [/^deepseek-reasoner/, 65_536],
  [/^deepseek-/, 8_192],
];

/** The output tokens to reserve for `model` when the client set no cap. */
export function maxOutputTokensFor(model: string, fallback: number = DEFAULT_RESERVED_OUTPUT_TOKENS): number {
  const name = model.toLowerCase().replace(/^models\//, '');
  for (const [pattern, tokens] of FAMILY_MAX_OUTPUT) if (pattern.test(name)) return tokens;
  return fallback;
}
