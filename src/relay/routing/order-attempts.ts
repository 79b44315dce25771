import type { Channel } from '../../domain/channel.ts';

/**
 * The order in which a request tries its candidate channels: highest priority tier first;
 * inside a tier a weighted random permutation (each pick proportional to weight among the
 * channels not yet picked), so traffic splits by weight and every channel is tried at most once.
 * `random` is injected so tests are deterministic.
 */
export function orderAttempts(candidates: readonly Channel[], random: () => number): Channel[] {
  const tiers = new Map<number, Channel[]>();
  for (const channel of candidates) {
    const tier = tiers.get(channel.priority);
    if (tier) tier.push(channel);
    else tiers.set(channel.priority, [channel]);
  }
  const ordered: Channel[] = [];
  for (const priority of [...tiers.keys()].sort((a, b) => b - a)) {
    ordered.push(...weightedShuffle(tiers.get(priority) ?? [], random));
  }
  return ordered;
}

function weightedShuffle(channels: Channel[], random: () => number): Channel[] {
  if (channels.length <= 1) return channels;
  const remaining = [...channels];
  const result: Channel[] = [];
  while (remaining.length > 0) {
    // A channel of weight 0 is picked only once every weighted channel of its tier is.
    const weights = remaining.map((channel) => Math.max(channel.weight, 0));
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    let index = 0;
    if (total > 0) {
      let point = random() * total;
      while (index < remaining.length - 1 && point >= (weights[index] ?? 0)) {
        point -= weights[index] ?? 0;
        index += 1;
      }
    } else {
      index = Math.floor(random() * remaining.length);
    }
    result.push(...remaining.splice(index, 1));
  }
  return result;
}
