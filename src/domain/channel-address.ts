import type { ChannelKind } from './channel-kind.ts';

export interface ChannelAddressInput {
  provider: ChannelKind;
  baseUrl?: string | undefined;
  region?: string | undefined;
  project?: string | undefined;
}

/** A region as the clouds spell them (`us-east-1`, `europe-west4`, `global`). */
export const REGION_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * The base address a channel uses, or why it cannot have one. Vertex and Bedrock derive it
 * from the region (a private or VPC endpoint may still be set); the other kinds need it.
 * Vertex also needs the project its models are billed to.
 */
export function resolveChannelBaseUrl(input: ChannelAddressInput): { baseUrl: string } | { field: string; message: string } {
  switch (input.provider) {
    case 'vertex':
      if (!input.project) return { field: 'project', message: 'is required for a vertex channel (the Google Cloud project id)' };
      if (!input.region) return { field: 'region', message: 'is required for a vertex channel (e.g. us-east5 or global)' };
      return {
        baseUrl: input.baseUrl ?? (input.region === 'global' ? 'https://aiplatform.googleapis.com' : `https://${input.region}-aiplatform.googleapis.com`),
      };
    case 'bedrock':
      if (!input.region) return { field: 'region', message: 'is required for a bedrock channel (e.g. us-east-1)' };
      return { baseUrl: input.baseUrl ?? `https://bedrock-runtime.${input.region}.amazonaws.com` };
    default:
      if (!input.baseUrl) {
        return {
          field: 'baseUrl',
          message: input.provider === 'azure' ? 'is required: the resource endpoint, e.g. https://NAME.openai.azure.com' : 'is required',
        };
      }
      return { baseUrl: input.baseUrl };
  }
}
