import type { ChannelKind } from './channel-kind.ts';

/** An upstream the gateway can send requests to, with the models and groups it serves. */
export interface Channel {
  id: string;
  name: string;
  provider: ChannelKind;
  /** As the provider's SDK takes it: OpenAI `https://host/v1`, Anthropic and Gemini the root. */
  baseUrl: string;
  /** One or more upstream secrets; requests rotate among them. Never leave the process. */
  apiKeys: string[];
  /** Public model names this channel serves. */
  models: string[];
  groups: string[];
  /** Public name → upstream name. */
  modelMap: Record<string, string>;
  priority: number;
  weight: number;
  enabled: boolean;
  /** OpenAI kind only: the host also serves `/responses`, so Responses clients pass through. */
  supportsResponses: boolean;
  /** Path prefixes (e.g. `antigravity`) allowed to route here; empty = every surface. */
  allowedPrefixes: string[];
  /** Azure only: the `api-version` query parameter (a default GA version when absent). */
  apiVersion?: string;
  /** Vertex and Bedrock: the cloud region (`us-east5`, `global`, `us-east-1`). */
  region?: string;
  /** Vertex only: the Google Cloud project id. */
  project?: string;
  createdAt: number;
  updatedAt: number;
}

export type NewChannel = Omit<Channel, 'id' | 'createdAt' | 'updatedAt'>;
export type ChannelPatch = Partial<NewChannel>;
