/**
 * Provider-specific values that ride along with canonical parts so that a round trip
 * through the gateway loses nothing: Anthropic `cache_control`, Gemini `thoughtSignature`,
 * OpenAI Responses item ids and encrypted reasoning. Keyed by provider, then by field.
 */
export type ProviderMetadata = {
  anthropic?: { cacheControl?: unknown; [key: string]: unknown };
  gemini?: { thoughtSignature?: string; [key: string]: unknown };
  openai?: { itemId?: string; encryptedContent?: string; [key: string]: unknown };
};
