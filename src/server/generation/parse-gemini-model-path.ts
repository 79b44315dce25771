/** The Gemini methods the gateway serves on `models/{model}:{method}`. */
export type GeminiMethod = 'generateContent' | 'streamGenerateContent' | 'countTokens' | 'embedContent' | 'batchEmbedContents';

const GEMINI_METHODS: readonly string[] = ['generateContent', 'streamGenerateContent', 'countTokens', 'embedContent', 'batchEmbedContents'];

/**
 * Splits the wildcard part of `/v1beta/models/*` into model and method. Tolerates a `%3A`
 * colon, a `models/` prefix repeated by a client, and tuned model names with a slash.
 */
export function parseGeminiModelPath(wildcard: string): { model: string; method: string | undefined } {
  const decoded = wildcard.replace(/%3A/gi, ':');
  const colon = decoded.lastIndexOf(':');
  const rawModel = colon === -1 ? decoded : decoded.slice(0, colon);
  const method = colon === -1 ? undefined : decoded.slice(colon + 1);
  return { model: decodeURIComponent(rawModel.replace(/^models\//, '')), method };
}

export function isGeminiMethod(method: string | undefined): method is GeminiMethod {
  return method !== undefined && GEMINI_METHODS.includes(method);
}
