import { createHash } from 'node:crypto';
import type { Kv } from '../kv/kv.ts';
import type { ProtocolId } from '../protocols/protocol-codec.ts';
import { isRecord } from '../protocols/shared/is-record.ts';
import type { Channel } from '../store/store.ts';

/** Where a conversation's previous turn was served. */
export interface AffinityTarget {
  channelId: string;
  keyIndex: number;
}

export interface ConversationAffinityOptions {
  /** How long a conversation stays pinned after its last recorded turn (prompt caches live 5 min to 1 h). */
  ttlMs: number;
}

const KEY_INDEX_SLOTS = 1024;

/**
 * Keeps a conversation on the channel and upstream key that served its previous turn, so the
 * upstream's prompt cache stays warm. Entries live in the kv (shared by every instance with
 * Redis), expire after `ttlMs` and hold one integer each: a 32-bit hash of the channel id and
 * the key index. Affinity only reorders a channel to the front of its own priority tier, and
 * the relay still skips a channel whose circuit is open: failover wins over affinity.
 */
export class ConversationAffinity {
  readonly #kv: Kv;
  readonly #ttlMs: number;

  constructor(kv: Kv, options: ConversationAffinityOptions) {
    this.#kv = kv;
    this.#ttlMs = options.ttlMs;
  }

  /** The previous turn's channel and key among `candidates`, if it is still one of them. */
  async lookup(conversation: string, candidates: readonly Channel[]): Promise<{ channel: Channel; keyIndex: number } | undefined> {
    let value: number | undefined;
    try {
      value = await this.#kv.get(storageKey(conversation));
    } catch {
      return undefined; // Affinity is an optimisation: a kv hiccup must not fail the request.
    }
    if (value === undefined) return undefined;
    const channelHash = Math.floor(value / KEY_INDEX_SLOTS);
    const keyIndex = value % KEY_INDEX_SLOTS;
    const channel = candidates.find((candidate) => hashChannelId(candidate.id) === channelHash);
    return channel && keyIndex < channel.apiKeys.length ? { channel, keyIndex } : undefined;
  }

  /** Records where this turn was served (moving the conversation if it changed channel or key). */
  async remember(conversation: string, target: AffinityTarget, previous: AffinityTarget | undefined): Promise<void> {
    if (target.keyIndex >= KEY_INDEX_SLOTS) return;
    if (previous && previous.channelId === target.channelId && previous.keyIndex === target.keyIndex) return;
    const key = storageKey(conversation);
    try {
      // The kv has no plain "set": replace by delete then set-if-absent (a racing turn may win; either is fine).
      if (previous) await this.#kv.delete(key);
      await this.#kv.setIfAbsent(key, hashChannelId(target.channelId) * KEY_INDEX_SLOTS + target.keyIndex, this.#ttlMs);
    } catch {
      // Best effort, as above.
    }
  }
}

/** Moves `preferred` to the front of its own priority tier; tiers above it still come first. */
export function preferChannel(ordered: readonly Channel[], preferred: Channel): Channel[] {
  const rest = ordered.filter((channel) => channel.id !== preferred.id);
  if (rest.length === ordered.length) return [...ordered];
  const at = rest.findIndex((channel) => channel.priority <= preferred.priority);
  return at < 0 ? [...rest, preferred] : [...rest.slice(0, at), preferred, ...rest.slice(at)];
}

/**
 * What identifies one conversation, from what each protocol offers, or undefined when the
 * request carries nothing stable (then the weighted shuffle applies). `scope` (the caller's key
 * and the model) keeps tenants apart. Later turns append to the history, so the opening of the
 * conversation (system prompt, tools, first message) is stable across turns:
 * - OpenAI chat / Responses: `prompt_cache_key` (the client naming its cache), else `user` plus
 *   the opening, else the opening;
 * - Anthropic: `metadata.user_id` plus the prefix up to the first `cache_control` breakpoint
 *   (what Anthropic caches), or the opening when there is none;
 * - Gemini: the system instruction and first content.
 */
export function conversationKey(scope: string, protocol: ProtocolId, body: Record<string, unknown>): string | undefined {
  const parts = conversationParts(protocol, body);
  if (parts === undefined) return undefined;
  return createHash('sha256').update(scope).update('\u0000').update(parts).digest('base64url');
}

function conversationParts(protocol: ProtocolId, body: Record<string, unknown>): string | undefined {
  switch (protocol) {
    case 'openai-chat': {
      if (typeof body.prompt_cache_key === 'string' && body.prompt_cache_key !== '') return `pck:${body.prompt_cache_key}`;
      const messages = Array.isArray(body.messages) ? body.messages : [];
      const opening = openingOf(messages, (message) => isRecord(message) && message.role === 'user');
      if (opening === undefined) return undefined;
      return `chat:${typeof body.user === 'string' ? body.user : ''}:${stable(opening)}`;
    }
    case 'openai-responses': {
      if (typeof body.prompt_cache_key === 'string' && body.prompt_cache_key !== '') return `pck:${body.prompt_cache_key}`;
      // A previous_response_id chain sends only the new turn; its root cannot be told apart, so
      // `user` or a prompt_cache_key is what pins such a chain.
      const input = typeof body.input === 'string' ? [body.input] : Array.isArray(body.input) ? body.input : [];
      const opening = typeof body.previous_response_id === 'string' ? undefined : openingOf(input, () => true);
      const user = typeof body.user === 'string' ? body.user : '';
      if (opening === undefined) return user === '' ? undefined : `user:${user}`;
      return `responses:${user}:${stable([body.instructions ?? null, opening])}`;
    }
    case 'anthropic-messages': {
      const metadata = isRecord(body.metadata) ? body.metadata : {};
      const user = typeof metadata.user_id === 'string' ? metadata.user_id : '';
      const prefix = cachePrefix(body);
      if (prefix !== undefined) return `anthropic-cache:${user}:${prefix}`;
      const messages = Array.isArray(body.messages) ? body.messages : [];
      const opening = openingOf(messages, (message) => isRecord(message) && message.role === 'user');
      if (opening === undefined) return user === '' ? undefined : `user:${user}`;
      return `anthropic:${user}:${stable([body.system ?? null, opening])}`;
    }
    case 'gemini-generate-content': {
      const contents = Array.isArray(body.contents) ? body.contents : [];
      const opening = openingOf(contents, () => true);
      if (opening === undefined) return undefined;
      return `gemini:${stable([body.systemInstruction ?? body.system_instruction ?? null, opening])}`;
    }
    default: {
      const unreachable: never = protocol;
      return unreachable;
    }
  }
}

/** Everything up to and including the first item matching `isFirstTurn` (system messages ride along). */
function openingOf(items: readonly unknown[], isFirstTurn: (item: unknown) => boolean): unknown[] | undefined {
  const index = items.findIndex(isFirstTurn);
  return index < 0 ? undefined : items.slice(0, index + 1);
}

/** Anthropic's cached prefix: tools, system, messages, in that order, up to the first cache_control. */
function cachePrefix(body: Record<string, unknown>): string | undefined {
  const sequence: unknown[] = [
    ...(Array.isArray(body.tools) ? body.tools : []),
    ...(Array.isArray(body.system) ? body.system : typeof body.system === 'string' ? [body.system] : []),
  ];
  for (const message of Array.isArray(body.messages) ? body.messages : []) {
    if (isRecord(message) && Array.isArray(message.content)) sequence.push(...message.content.map((block) => ({ role: message.role, block })));
    else sequence.push(message);
  }
  const index = sequence.findIndex((item) => hasCacheControl(item));
  return index < 0 ? undefined : stable(sequence.slice(0, index + 1));
}

function hasCacheControl(item: unknown): boolean {
  if (!isRecord(item)) return false;
  if (item.cache_control !== undefined) return true;
  return isRecord(item.block) && item.block.cache_control !== undefined;
}

function stable(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

function storageKey(conversation: string): string {
  return `affinity:${conversation}`;
}

/** FNV-1a, 32 bits: small enough to pack with a key index into one safe integer. */
function hashChannelId(id: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < id.length; index += 1) {
    hash ^= id.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
