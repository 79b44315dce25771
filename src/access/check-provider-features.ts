import { invalidRequest } from '../core/gateway-error.ts';
import type { Warning } from '../core/warning.ts';
import type { Group } from '../domain/group.ts';
import type { ProviderFeature } from '../protocols/protocol-codec.ts';

const WHY: Record<ProviderFeature['kind'], string> = {
  background:
    'background responses are generated after the request ends, out of the gateway\'s sight, so their answer could not be metered; send the request without "background" (streaming keeps a long answer alive)',
  'server-tools': 'the provider bills this tool apart from tokens',
  'stored-objects': "it refers to objects kept by the gateway's upstream account, not yours",
  'priority-tier': 'the priority tier is billed above the list prices this gateway charges',
};

/** The declared tools to leave out of the request, and the warnings that say so. */
export interface FeatureVerdict {
  dropTools: ProviderFeature[];
  warnings: Warning[];
}

const NOTHING_DROPPED: FeatureVerdict = Object.freeze({ dropTools: [], warnings: [] }) as FeatureVerdict;

/**
 * Decides, before any upstream call, the provider features the caller's group is not allowed
 * (`Group.allowedFeatures`). A declared tool is left out of the request with an
 * `unsupported:tools[i]` warning: a client offers it to the model, which may never call it, and
 * clients such as Codex offer web search on every request. Any other such field (a stored prompt,
 * a conversation, a container, MCP servers, the priority tier) is a 400 naming it, as is
 * `background` for every group: its answer is produced upstream after the request, and its
 * metering, ended. The codec names the features (`RequestPeek.providerFeatures`); this decides.
 */
export function checkProviderFeatures(features: readonly ProviderFeature[] | undefined, group: Group): FeatureVerdict {
  if (features === undefined) return NOTHING_DROPPED;
  const verdict: FeatureVerdict = { dropTools: [], warnings: [] };
  for (const feature of features) {
    if (feature.kind !== 'background' && group.allowedFeatures.includes(feature.kind)) continue;
    const allow = feature.kind === 'background' ? '' : ` The operator can allow it for group "${group.name}" (allowedFeatures: ["${feature.kind}"]).`;
    if (feature.tool === undefined) {
      throw invalidRequest(`"${feature.field}" (${feature.name}) is not available through this gateway: ${WHY[feature.kind]}.${allow}`, feature.field);
    }
    verdict.dropTools.push(feature);
    verdict.warnings.push({ type: 'unsupported', feature: feature.field, detail: `${feature.name}: ${WHY[feature.kind]}; left out of the request.${allow}` });
  }
  return verdict;
}
