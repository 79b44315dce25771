import { createHash } from 'node:crypto';
import type { Channel } from '../../domain/channel.ts';
import type { Kv } from '../../kv/kv.ts';
import type { AffinityHint } from '../../protocols/protocol-codec.ts';

/**
 * Block boundaries looked at before a request's last cache breakpoint, as Anthropic's own cache
 * does (it checks for hits up to about 20 blocks before a breakpoint): the previous turn's
 * breakpoint is a few blocks back (its reply, then the new user message).
 */
export const PREFIX_LOOKBACK_BLOCKS = 20;

/** AFFINITY_TTL_SECONDS' default: an hour after the last turn (Anthropic's longer cache lifetime). */
export const DEFAULT_AFFINITY_TTL_SECONDS = 3_600;

/** Where a conversation's previous turn was served, as found for this turn. */
export interface AffinityPreference {
  channel: Channel;
  /** The upstream key that served it (an index into `channel.apiKeys`), when still configured. */
  keyIndex: number | undefined;
}

/** One turn's kv keys (already hashed and scoped to the API key). */
export interface AffinityTurn {
  /** Looked up in this order; the first that names a candidate channel wins. */
  lookup: string[];
  /** Where this turn's channel and key are recorded once it is served. */
  record: string[];
  /** The turn is also recorded under its own response id (Responses chains). */
  recordResponseId: boolean;
  scope: string;
  model: string;
}

/**
 * Conversation affinity: a conversation stays on the channel and upstream key that served its
 * previous turn, so the provider's prompt cache for it stays warm. What names a conversation
 * comes from the client protocol's codec (`affinityHint`); here it is hashed, scoped to the API
 * key (one tenant can never name another's entries) and to the model, and kept in the shared kv
 * with a sliding expiry, so every instance sees it. The kv bounds the number of entries (the
 * memory kv keeps the newest within `maxTextEntries` and `maxTextBytes`; Redis entries expire).
 *
 * Affinity only orders: the relay still skips a channel whose circuit is open, and fails over
 * as before; whichever channel serves the turn becomes the conversation's affinity.
 */
export class ConversationAffinity {
  constructor(
    private readonly kv: Kv,
    private readonly ttlMs: number,
  ) {}

  /** The kv keys of one turn (no I/O). */
  plan(scope: string, model: string, hint: AffinityHint): AffinityTurn {
    const lookup: string[] = [];
    const record: string[] = [];
    const previous = hint.responseChain?.previous;
    if (previous !== undefined) lookup.push(responseKey(scope, model, previous));
    if (hint.cachePrefix) {
      const prefix = prefixKeys(scope, model, hint.cachePrefix);
      lookup.push(...prefix.lookup);
      record.push(prefix.record);
    }
    for (const name of hint.conversationKeys) {
      const key = entryKey(scope, digest(`${model}\u0000conversation\u0000${name}`));
      lookup.push(key);
      record.push(key);
    }
    return { lookup, record, recordResponseId: hint.responseChain !== undefined, scope, model };
  }

  /** The channel (among `candidates`) and key that served this conversation last, if any. */
  async find(turn: AffinityTurn, candidates: readonly Channel[]): Promise<AffinityPreference | undefined> {
    if (turn.lookup.length === 0) return undefined;
    const values = await this.kv.getTexts(turn.lookup);
    for (const value of values) {
      const target = value === undefined ? undefined : parseTarget(value);
      if (!target) continue;
      // A channel that no longer serves this model for this key (edited, removed) is passed over.
      const channel = candidates.find((candidate) => candidate.id === target.channelId);
      if (!channel) continue;
      return { channel, keyIndex: findKeyIndex(channel, target.keyIndex, target.keyHash) };
    }
    return undefined;
  }

  /** Records which channel and key served the turn (renewing the expiry of its entries). */
  async remember(turn: AffinityTurn, served: { channelId: string; keyIndex: number; apiKey: string }, responseId?: string): Promise<void> {
    const keys = [...turn.record];
    if (turn.recordResponseId && responseId !== undefined) keys.push(responseKey(turn.scope, turn.model, responseId));
    if (keys.length === 0) return;
    await this.kv.setTexts(keys, `${served.channelId}\t${served.keyIndex}\t${keyFingerprint(served.apiKey)}`, this.ttlMs);
  }
}

/** Moves `preferred` to the front of its own priority tier: affinity never outranks the operator's priorities. */
export function preferChannel(ordered: readonly Channel[], preferred: Channel): Channel[] {
  const at = ordered.findIndex((channel) => channel.id === preferred.id);
  if (at <= 0) return [...ordered];
  const result = [...ordered];
  const [channel] = result.splice(at, 1);
  const tierStart = result.findIndex((candidate) => candidate.priority === preferred.priority);
  result.splice(tierStart < 0 ? at : tierStart, 0, channel as Channel);
  return result;
}

/**
 * Rolling hash over the prefix blocks: the digest after block i names the content up to and
 * including it. Recorded at the last breakpoint; looked up (longest first) at that breakpoint,
 * the boundaries up to PREFIX_LOOKBACK_BLOCKS before it, and every other breakpoint.
 */
function prefixKeys(scope: string, model: string, prefix: { blocks: string[]; breakpoints: number[] }): { lookup: string[]; record: string } {
  const last = prefix.breakpoints.at(-1) ?? prefix.blocks.length - 1;
  const wanted = new Set(prefix.breakpoints);
  for (let index = Math.max(0, last - PREFIX_LOOKBACK_BLOCKS); index <= last; index += 1) wanted.add(index);
  const hash = createHash('sha256').update(`${model}\u0000prefix\u0000`);
  const digests = new Map<number, string>();
  const end = Math.max(...wanted);
  for (let index = 0; index <= end; index += 1) {
    const block = prefix.blocks[index] ?? '';
    hash.update(`${block.length}\u0000`).update(block);
    if (wanted.has(index)) digests.set(index, hash.copy().digest('base64url').slice(0, 24));
  }
  const lookup = [...digests.keys()].sort((a, b) => b - a).map((index) => entryKey(scope, digests.get(index) as string));
  return { lookup, record: entryKey(scope, digests.get(last) as string) };
}

function responseKey(scope: string, model: string, responseId: string): string {
  return entryKey(scope, digest(`${model}\u0000response\u0000${responseId}`));
}

function entryKey(scope: string, hashed: string): string {
  return `affinity:${scope}:${hashed}`;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 24);
}

/** Tells an upstream key apart from its neighbours without keeping it (the operator may reorder or replace keys). */
function keyFingerprint(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('base64url').slice(0, 12);
}

function parseTarget(value: string): { channelId: string; keyIndex: number; keyHash: string } | undefined {
  const [channelId, index, keyHash] = value.split('\t');
  const keyIndex = Number(index);
  if (!channelId || keyHash === undefined || !Number.isSafeInteger(keyIndex) || keyIndex < 0) return undefined;
  return { channelId, keyIndex, keyHash };
}

function findKeyIndex(channel: Channel, keyIndex: number, keyHash: string): number | undefined {
  const at = channel.apiKeys[keyIndex];
  if (at !== undefined && keyFingerprint(at) === keyHash) return keyIndex;
  const moved = channel.apiKeys.findIndex((apiKey) => keyFingerprint(apiKey) === keyHash);
  return moved < 0 ? undefined : moved;
}
