import { invalidRequest } from '../core/gateway-error.ts';
import type { Group } from '../domain/group.ts';
import type { ProviderFeature } from '../protocols/protocol-codec.ts';

const WHY: Record<ProviderFeature['kind'], string> = {
  background:
    'background responses are generated after the request ends, out of the gateway\'s sight, so their answer could not be metered; send the request without "background" (streaming keeps a long answer alive)',
  'server-tools': 'the provider bills this tool apart from tokens',
  'stored-objects': 'it refers to objects kept by the gateway\'s upstream account, not yours',
  'priority-tier': 'the priority tier is billed above the list prices this gateway charges',
};

/**
 * Refuses, before any upstream call, a provider feature the caller's group is not allowed:
 * a 400 naming the field the client wrote. `background` is refused for every group: its answer
 * is produced upstream after the request (and its metering) ended. The codec names the
 * features (`RequestPeek.providerFeatures`); this decides.
 */
export function checkProviderFeatures(features: readonly ProviderFeature[] | undefined, group: Group): void {
  if (features === undefined) return;
  for (const feature of features) {
    if (feature.kind !== 'background' && group.allowedFeatures.includes(feature.kind)) continue;
    const allow = feature.kind === 'background' ? '' : ` The operator can allow it for group "${group.name}" (allowedFeatures: ["${feature.kind}"]).`;
    throw invalidRequest(`"${feature.field}" (${feature.name}) is not available through this gateway: ${WHY[feature.kind]}.${allow}`, feature.field);
  }
}
