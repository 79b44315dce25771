/**
 * One piece of an upstream's reasoning state, in the upstream's own terms. The gateway hands
 * these to clients of another protocol sealed in an envelope, and gives them back to the same
 * upstream exactly as issued.
 */
export type ReasoningState =
  /** Claude thinking block (Anthropic's API, or Bedrock's reasoningContent): the text is part of what the signature covers. */
  | { kind: 'anthropic-thinking'; text: string; signature: string }
  | { kind: 'anthropic-redacted'; data: string }
  /** Gemini thought signature on a function call (the one Gemini 3 insists on). */
  | { kind: 'gemini-call'; callId: string; signature: string }
  /** Gemini thought signature on a text part (and on thought parts when the client dropped them). */
  | { kind: 'gemini-text'; signature: string }
  | { kind: 'gemini-thought'; text: string; signature: string }
  /** OpenAI Responses reasoning item with its encrypted content. */
  | { kind: 'openai-reasoning'; itemId?: string; text: string; encryptedContent: string };

/** How a client protocol carries reasoning state back: its own opaque slot on a reasoning part. */
export type ReasoningSlot = 'reasoning-signature' | 'reasoning-encrypted' | 'gemini-signature';
