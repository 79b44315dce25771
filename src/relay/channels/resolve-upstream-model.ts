import { GatewayError } from '../../core/gateway-error.ts';
import type { Channel } from '../../domain/channel.ts';

/**
 * Follows a channel's model map from the public name to the name the upstream knows. Maps
 * may chain (a → b → c); a cycle is a configuration error reported instead of looping.
 */
export function resolveUpstreamModel(channel: Channel, publicModel: string): string {
  let model = publicModel;
  const seen = new Set<string>([model]);
  for (;;) {
    const next = channel.modelMap[model];
    if (next === undefined || next === model) return model;
    if (seen.has(next)) {
      throw new GatewayError('internal_error', `Channel "${channel.name}" has a model map cycle (${[...seen, next].join(' → ')}); fix its modelMap.`);
    }
    seen.add(next);
    model = next;
  }
}
