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

/** A path segment that names an API version (`v1`, `v1beta`, `v2alpha`…). */
const VERSION_SEGMENT = /^v\d+([a-z]+\d*)?$/;

/**
 * What looks wrong in a channel's address, said when it is saved (never a refusal: some
 * OpenAI-compatible servers do serve `/chat/completions` at the root). An OpenAI-compatible base
 * is given as the OpenAI SDK takes it, ending in its version (`https://host/v1`; Gemini's
 * `…/v1beta/openai` has one too); without it every call may be answered "404 Unknown route".
 */
export function channelAddressWarnings(channel: { provider: ChannelKind; baseUrl: string }): string[] {
  if (channel.provider !== 'openai') return [];
  let segments: string[];
  try {
    segments = new URL(channel.baseUrl).pathname.split('/').filter((segment) => segment !== '');
  } catch {
    return [];
  }
  if (segments.some((segment) => VERSION_SEGMENT.test(segment))) return [];
  return [
    `baseUrl "${channel.baseUrl}" has no API version segment: an OpenAI-compatible base usually ends in one (e.g. ${channel.baseUrl.replace(/\/+$/, '')}/v1), and without it the upstream may answer every call with 404. Test the channel to be sure.`,
  ];
}
