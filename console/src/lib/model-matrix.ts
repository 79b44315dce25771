import { channelStatus } from './channel-status.ts';
import type { Channel, Group, Price } from './types.ts';

export interface MatrixCell {
  channels: Array<{ id: string; name: string; usable: boolean; label: string }>;
  usable: number;
  total: number;
}

export interface ModelMatrix {
  groups: Group[];
  models: string[];
  /** `${group}\u0000${model}` → cell; absent = the group does not offer the model. */
  cells: Map<string, MatrixCell>;
  prices: Map<string, Price>;
}

export const cellKey = (group: string, model: string) => `${group}\u0000${model}`;

/** Group × model as routing sees it: every channel serving the pair, and how many are usable now. */
export function buildModelMatrix(groups: Group[], channels: Channel[], prices: Price[]): ModelMatrix {
  const cells = new Map<string, MatrixCell>();
  const models = new Set<string>();
  for (const channel of channels) {
    const status = channelStatus(channel);
    for (const model of channel.models) {
      models.add(model);
      for (const group of channel.groups) {
        const key = cellKey(group, model);
        const cell = cells.get(key) ?? { channels: [], usable: 0, total: 0 };
        // A model whose own circuit on this channel is open (e.g. the upstream has no such model or
        // route) is not served by it, whatever the channel's other models do.
        const modelOut = channel.health?.models.some((entry) => entry.model === model && entry.state === 'open') === true;
        const usable = status.usable && !modelOut;
        cell.channels.push({ id: channel.id, name: channel.name, usable, label: modelOut ? 'model out' : status.label });
        cell.total += 1;
        if (usable) cell.usable += 1;
        cells.set(key, cell);
      }
    }
  }
  return {
    groups,
    models: [...models].sort(),
    cells,
    prices: new Map(prices.map((price) => [price.model, price])),
  };
}

/** Models a group offers, usable or not. */
export function modelsOfGroup(matrix: ModelMatrix, group: string): string[] {
  return matrix.models.filter((model) => matrix.cells.has(cellKey(group, model)));
}
