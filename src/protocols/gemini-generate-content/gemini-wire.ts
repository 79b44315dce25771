/**
 * The Gemini v1beta wire shapes this codec writes. Readers never trust these types (input is
 * `unknown` and checked field by field); writers build their output from them so the bytes
 * stay exactly what Gemini clients expect.
 */
export interface GeminiInlineData {
  mimeType: string;
  data: string;
}

export interface GeminiFileData {
  mimeType?: string;
  fileUri: string;
}

export interface GeminiFunctionCall {
  id?: string;
  name: string;
  args: Record<string, unknown>;
}

export interface GeminiFunctionResponse {
  id?: string;
  name: string;
  response: Record<string, unknown>;
  /** Gemini 3 multimodal tool results (images returned by a tool). */
  parts?: GeminiPart[];
}

export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: GeminiInlineData;
  fileData?: GeminiFileData;
  functionCall?: GeminiFunctionCall;
  functionResponse?: GeminiFunctionResponse;
}

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

export interface GeminiUsageMetadata {
  promptTokenCount: number;
  candidatesTokenCount: number;
  totalTokenCount: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
}

export interface GeminiCandidate {
  content: GeminiContent;
  finishReason?: string;
  index: number;
}

export interface GeminiGenerateContentResponse {
  candidates: GeminiCandidate[];
  usageMetadata?: GeminiUsageMetadata;
  modelVersion: string;
  responseId: string;
}

export interface GeminiErrorBody {
  error: {
    code: number;
    message: string;
    status: string;
    details?: Array<Record<string, unknown>>;
  };
}
