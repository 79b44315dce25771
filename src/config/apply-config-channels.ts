import type { ChannelPatch, NewChannel } from '../domain/channel.ts';
import { toNewChannel } from '../domain/new-channel.ts';
import type { Store } from '../store/store.ts';
import type { ConfigFileChannel } from './config-file-schema.ts';
import type { KindSummary } from './config-apply-summary.ts';
import { emptyKindSummary, sameValue } from './config-apply-summary.ts';

/** Channels are matched by name; the file describes the whole channel, omitted fields take defaults. */
export async function applyConfigChannels(store: Store, channels: readonly ConfigFileChannel[]): Promise<KindSummary> {
  const summary = emptyKindSummary();
  const existing = new Map((await store.channels.list()).map((channel) => [channel.name, channel]));
  for (const entry of channels) {
    const desired = toNewChannel(entry);
    const current = existing.get(desired.name);
    if (current === undefined) {
      await store.channels.create(desired);
      summary.created.push(desired.name);
      continue;
    }
    const patch: ChannelPatch = {};
    for (const field of Object.keys(desired) as Array<keyof NewChannel>) {
      if (!sameValue(current[field], desired[field])) Object.assign(patch, { [field]: desired[field] });
    }
    // Cloud settings absent from the file clear a stored value ('' is stored as none).
    for (const field of ['apiVersion', 'region', 'project'] as const) {
      if ((current[field] ?? '') !== (desired[field] ?? '')) patch[field] = desired[field] ?? '';
    }
    if (Object.keys(patch).length === 0) {
      summary.unchanged.push(desired.name);
    } else {
      await store.channels.update(current.id, patch);
      summary.updated.push(desired.name);
    }
  }
  return summary;
}
