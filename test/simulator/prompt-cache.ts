import { createHash } from 'node:crypto';

/** What one request read from and wrote to the prompt cache, in (estimated) tokens. */
export interface PromptCacheUse {
  read: number;
  write: number;
}

export interface PromptCache {
  /** Reads and writes the cache for one Anthropic Messages body; undefined when it has no breakpoint. */
  use(account: string, body: unknown): PromptCacheUse | undefined;
}

/** Anthropic checks for hits at block boundaries up to about 20 blocks before each breakpoint. */
const LOOKBACK_BLOCKS = 20;

/**
 * Anthropic's prompt caching as the API documents it, for one simulated host: a prefix (tools,
 * system, messages, in that order) up to a block marked `cache_control` is written to the
 * cache of the account that sent it; a later request of that account reads the longest cached
 * prefix ending at one of its breakpoints or at a block boundary up to 20 blocks before one.
 * The marker itself is not part of the content. Entries live `ttlMs` after their last use.
 * Tokens are estimated at four characters each. Written independently of the gateway's code.
 */
export function createPromptCache(now: () => number, ttlMs = 5 * 60_000): PromptCache {
  const accounts = new Map<string, Map<string, number>>();
  return {
    use(account, body) {
      const blocks = readBlocks(body);
      const breakpoints = blocks.flatMap((block, index) => (block.marked ? [index] : []));
      if (breakpoints.length === 0) return undefined;
      const cache = accounts.get(account) ?? new Map<string, number>();
      accounts.set(account, cache);
      const time = now();
      const hashes: string[] = [];
      const tokens: number[] = [];
      const rolling = createHash('sha256');
      let total = 0;
      for (const block of blocks) {
        rolling.update(`${block.text.length}:`).update(block.text);
        hashes.push(rolling.copy().digest('hex'));
        total += Math.ceil(block.text.length / 4);
        tokens.push(total);
      }
      const live = (index: number) => {
        const expiresAt = cache.get(hashes[index] ?? '');
        return expiresAt !== undefined && expiresAt > time;
      };
      let hit = -1;
      for (const breakpoint of breakpoints) {
        for (let index = breakpoint; index >= Math.max(0, breakpoint - LOOKBACK_BLOCKS); index -= 1) {
          if (index > hit && live(index)) hit = index;
        }
      }
      const last = breakpoints.at(-1) as number;
      if (hit >= 0) cache.set(hashes[hit] as string, time + ttlMs);
      for (const breakpoint of breakpoints) if (breakpoint > hit) cache.set(hashes[breakpoint] as string, time + ttlMs);
      const read = hit >= 0 ? (tokens[hit] as number) : 0;
      return { read, write: Math.max(0, (tokens[last] as number) - read) };
    },
  };
}

interface Block {
  text: string;
  marked: boolean;
}

function readBlocks(body: unknown): Block[] {
  if (!isObject(body)) return [];
  const blocks: Block[] = [];
  const add = (section: string, block: unknown) => {
    blocks.push({
      text: `${section}|${JSON.stringify(block, (key, value: unknown) => (key === 'cache_control' ? undefined : value))}`,
      marked: isObject(block) && isObject(block.cache_control),
    });
  };
  if (Array.isArray(body.tools)) for (const tool of body.tools) add('tool', tool);
  for (const block of asBlocks(body.system)) add('system', block);
  if (Array.isArray(body.messages)) {
    for (const message of body.messages) {
      if (!isObject(message)) continue;
      for (const block of asBlocks(message.content)) add(String(message.role), block);
    }
  }
  return blocks;
}

function asBlocks(content: unknown): unknown[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
