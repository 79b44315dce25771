import type { ProviderMetadata } from './provider-metadata.ts';

/**
 * The canonical request every client protocol decodes into and every upstream protocol
 * encodes from. It never reuses a wire type: names are our own, camelCase, and absence
 * (`undefined`) always means "the client did not say", never "zero".
 */
export interface ChatRequest {
  /** The public model name the client asked for (before any channel model map). */
  model: string;
  /** System instructions, hoisted from wherever the client protocol keeps them. */
  system: TextPart[];
  messages: Message[];
  tools: ToolDefinition[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stopSequences?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  /** Number of alternative completions (OpenAI `n`, Gemini `candidateCount`). */
  candidateCount?: number;
  responseFormat?: ResponseFormat;
  reasoning?: ReasoningConfig;
  /** An end-user identifier for abuse tracking (OpenAI `user`, Anthropic `metadata.user_id`). */
  user?: string;
  stream: boolean;
}

export type Message = UserMessage | AssistantMessage | ToolMessage;

export interface UserMessage {
  role: 'user';
  content: UserContentPart[];
}

export interface AssistantMessage {
  role: 'assistant';
  content: AssistantContentPart[];
}

/** Results of earlier tool calls. Protocols that carry them inside a user turn split them out here. */
export interface ToolMessage {
  role: 'tool';
  content: ToolResultPart[];
}

export type UserContentPart = TextPart | ImagePart | FilePart;
export type AssistantContentPart = TextPart | ReasoningPart | ToolCallPart;

export interface TextPart {
  type: 'text';
  text: string;
  providerMetadata?: ProviderMetadata;
}

export type MediaSource = { kind: 'base64'; mediaType: string; data: string } | { kind: 'url'; url: string; mediaType?: string };

export interface ImagePart {
  type: 'image';
  source: MediaSource;
  /** OpenAI's `detail` hint; other protocols have no equivalent. */
  detail?: 'auto' | 'low' | 'high' | 'original';
  providerMetadata?: ProviderMetadata;
}

/** Documents (PDF and friends) and audio the client attached. */
export interface FilePart {
  type: 'file';
  source: MediaSource;
  filename?: string;
  providerMetadata?: ProviderMetadata;
}

export interface ReasoningPart {
  type: 'reasoning';
  text: string;
  /** Anthropic thinking signature; must survive a round trip byte for byte. */
  signature?: string;
  /** Anthropic `redacted_thinking` payload: opaque, only meaningful to Anthropic. */
  redactedData?: string;
  providerMetadata?: ProviderMetadata;
}

export interface ToolCallPart {
  type: 'tool-call';
  /** The call id the client will echo back in its tool result. */
  callId: string;
  name: string;
  /** Arguments as JSON text, exactly as produced (may be invalid JSON from a weak model). */
  arguments: string;
  providerMetadata?: ProviderMetadata;
}

export interface ToolResultPart {
  type: 'tool-result';
  callId: string;
  /** The tool's name, recovered from the matching call when the protocol does not carry it. */
  name?: string;
  content: Array<TextPart | ImagePart>;
  isError?: boolean;
  providerMetadata?: ProviderMetadata;
}

export interface ToolDefinition {
  name: string;
  description?: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
  strict?: boolean;
  providerMetadata?: ProviderMetadata;
}

export type ToolChoice = { type: 'auto' } | { type: 'none' } | { type: 'required' } | { type: 'tool'; name: string };

export type ResponseFormat = { type: 'text' } | { type: 'json'; schema?: Record<string, unknown>; name?: string; strict?: boolean };

export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';

export interface ReasoningConfig {
  /** false when the client explicitly turned thinking off. */
  enabled: boolean;
  effort?: ReasoningEffort;
  budgetTokens?: number;
}
