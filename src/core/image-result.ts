/**
 * The wire an upstream speaks for an image request: OpenAI's `/v1/images/generations` (OpenAI and
 * Azure channels), Gemini's `generateContent` with image output (Gemini image models on the Gemini
 * API and Vertex), or Vertex Imagen's `:predict`. The codecs translate between them through
 * `ImageResult`; the channel adapters only name which one a model speaks.
 */
export type MediaWire = 'openai' | 'gemini-image' | 'vertex-imagen';

/** One generated image, whatever wire it came in. */
export interface GeneratedImage {
  /** The image's bytes, base64. */
  b64: string;
  mimeType: string;
  revisedPrompt?: string;
}

/** An image reply in wire-neutral terms, with what it says about itself for the bill. */
export interface ImageResult {
  /** Seconds since the epoch, as OpenAI's `created`. */
  created: number;
  images: GeneratedImage[];
  /** Text the model wrote beside its images (Gemini image models may). */
  text: string;
  facts: ImageReplyFacts;
}

/** What an image reply says about itself, for the bill: images returned, their tier, tokens. */
export interface ImageReplyFacts {
  count: number;
  size: string | undefined;
  quality: string | undefined;
  /** Text input tokens, image input tokens and image output tokens, when the upstream counted them. */
  textInputTokens: number | undefined;
  imageInputTokens: number | undefined;
  outputTokens: number | undefined;
  /** Text the model wrote beside the images (Gemini's TEXT modality), billed as output tokens. */
  textOutputTokens?: number;
}
