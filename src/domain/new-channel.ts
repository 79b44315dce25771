import { resolveChannelBaseUrl } from './channel-address.ts';
import type { ChannelKind } from './channel-kind.ts';
import type { NewChannel } from './channel.ts';

/**
 * A channel as an operator describes it, in the config file or to the admin API: the upstream
 * secret as `apiKey` or `apiKeys`, everything but name, kind, address and models optional.
 */
export interface ChannelInput {
  name: string;
  provider: ChannelKind;
  /** Optional for vertex and bedrock, whose address follows from the region. */
  baseUrl?: string | undefined;
  apiVersion?: string | undefined;
  region?: string | undefined;
  project?: string | undefined;
  apiKey?: string | undefined;
  apiKeys?: string[] | undefined;
  models: string[];
  groups?: string[] | undefined;
  modelMap?: Record<string, string> | undefined;
  priority?: number | undefined;
  weight?: number | undefined;
  enabled?: boolean | undefined;
  supportsResponses?: boolean | undefined;
  allowedPrefixes?: string[] | undefined;
}

/** The group every installation has; a channel that names none serves it. */
export const DEFAULT_GROUP = 'default';

/**
 * The one place a described channel gets its defaults, for the config file and the admin API
 * alike: groups `[default]` (as README, the example config and the CLI document), no model map,
 * priority 0, weight 1, enabled, no Responses passthrough, every surface.
 */
export function toNewChannel(input: ChannelInput): NewChannel {
  return {
    name: input.name,
    provider: input.provider,
    // Validation (admin schema, config schema) already refused a channel without a usable address.
    baseUrl: resolvedBaseUrl(input),
    ...(input.apiVersion ? { apiVersion: input.apiVersion } : {}),
    ...(input.region ? { region: input.region } : {}),
    ...(input.project ? { project: input.project } : {}),
    apiKeys: input.apiKeys ?? (input.apiKey === undefined ? [] : [input.apiKey]),
    models: input.models,
    groups: input.groups ?? [DEFAULT_GROUP],
    modelMap: input.modelMap ?? {},
    priority: input.priority ?? 0,
    weight: input.weight ?? 1,
    enabled: input.enabled ?? true,
    supportsResponses: input.supportsResponses ?? false,
    allowedPrefixes: input.allowedPrefixes ?? [],
  };
}

function resolvedBaseUrl(input: ChannelInput): string {
  const address = resolveChannelBaseUrl(input);
  return 'baseUrl' in address ? address.baseUrl : (input.baseUrl ?? '');
}
