import { HOLD_RECORD_TTL_MS, SETTLED_MARK_TTL_MS, type Kv, type KvAdjustOptions, type KvAdjustResult, type KvFunding } from './kv.ts';

interface Entry {
  value: number;
  /** Epoch ms; undefined = never. */
  expiresAt: number | undefined;
}

/** Sweep expired entries every this many writes, so idle window keys do not pile up. */
const SWEEP_EVERY_WRITES = 10_000;

/**
 * Text entries (conversation affinity, the reasoning tool-call cache) are bounded twice; past
 * either bound the least recently written go. By count: 100,000 entries. By bytes: 64 MiB of
 * keys and values (UTF-8, each entry counted whole even when several keys share one value), since
 * a reasoning envelope can be tens of kilobytes and a count alone bounds nothing in bytes.
 */
export const DEFAULT_MAX_TEXT_ENTRIES = 100_000;
export const DEFAULT_MAX_TEXT_BYTES = 64 * 1024 * 1024;
/**
 * And per tenant, so one API key's turns (tens of kilobytes of reasoning envelopes each) cannot
 * push every other key's affinity and reasoning state out: past its share a tenant's own least
 * recently written entries go. A text key names its tenant as its second segment
 * (`affinity:<key id>:…`, `reasoning:<key id>:…`).
 */
export const DEFAULT_MAX_TENANT_TEXT_ENTRIES = 10_000;
export const DEFAULT_MAX_TENANT_TEXT_BYTES = 4 * 1024 * 1024;

interface TextEntry {
  value: string;
  expiresAt: number;
  bytes: number;
  tenant: string;
}

/** One tenant's text entries, in write order (a write deletes first), and their bytes. */
interface TenantTexts {
  keys: Set<string>;
  bytes: number;
}

export interface MemoryKvOptions {
  now?: () => number;
  maxTextEntries?: number;
  maxTextBytes?: number;
  maxTenantTextEntries?: number;
  maxTenantTextBytes?: number;
}

/** `affinity:key_1:abc` → `key_1`; a key without a second segment is the tenant `''`. */
function tenantOf(key: string): string {
  const first = key.indexOf(':');
  if (first < 0) return '';
  const second = key.indexOf(':', first + 1);
  return second < 0 ? '' : key.slice(first + 1, second);
}

/**
 * The single-process `Kv`. Each method runs to completion synchronously inside its promise,
 * so check-and-change is atomic without locks (Node runs one callback at a time).
 */
export function createMemoryKv(options: MemoryKvOptions = {}): Kv {
  const now = options.now ?? Date.now;
  const maxTextEntries = options.maxTextEntries ?? DEFAULT_MAX_TEXT_ENTRIES;
  const maxTextBytes = options.maxTextBytes ?? DEFAULT_MAX_TEXT_BYTES;
  const maxTenantTextEntries = options.maxTenantTextEntries ?? DEFAULT_MAX_TENANT_TEXT_ENTRIES;
  const maxTenantTextBytes = options.maxTenantTextBytes ?? DEFAULT_MAX_TENANT_TEXT_BYTES;
  const entries = new Map<string, Entry>();
  // Insertion order is write order (a write deletes first), so the first entry is the stalest.
  const texts = new Map<string, TextEntry>();
  const tenants = new Map<string, TenantTexts>();
  let textBytes = 0;
  const dropText = (key: string) => {
    const entry = texts.get(key);
    if (entry === undefined) return;
    texts.delete(key);
    textBytes -= entry.bytes;
    const tenant = tenants.get(entry.tenant);
    if (tenant === undefined) return;
    tenant.keys.delete(key);
    tenant.bytes -= entry.bytes;
    if (tenant.keys.size === 0) tenants.delete(entry.tenant);
  };
  const leases = new Map<string, Map<string, number>>();
  const fundings = new Map<string, KvFunding>();
  /** `key\0holdId` -> the delta held, or null once settled (a late hold with that id is refused). */
  const holds = new Map<string, { delta: number | null; expiresAt: number }>();
  let writes = 0;

  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt !== undefined && entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };

  const wrote = () => {
    writes += 1;
    if (writes % SWEEP_EVERY_WRITES !== 0) return;
    const time = now();
    for (const [key, entry] of entries) {
      if (entry.expiresAt !== undefined && entry.expiresAt <= time) entries.delete(key);
    }
    for (const [key, record] of holds) if (record.expiresAt <= time) holds.delete(key);
  };

  const holdRecord = (key: string, holdId: string) => {
    const record = holds.get(`${key}\0${holdId}`);
    if (record !== undefined && record.expiresAt <= now()) {
      holds.delete(`${key}\0${holdId}`);
      return undefined;
    }
    return record;
  };

  const applyFunding = (key: string, entry: Entry, funding: KvFunding | undefined) => {
    if (funding === undefined) return;
    requireInteger(funding.fundedMicros, 'fundedMicros');
    const seen = fundings.get(key);
    if (seen !== undefined && seen.version >= funding.version) return;
    if (seen !== undefined) entry.value += funding.fundedMicros - seen.fundedMicros;
    fundings.set(key, { ...funding });
  };

  const expiry = (ttlMs: number | undefined) => (ttlMs === undefined ? undefined : now() + ttlMs);

  return {
    async get(key) {
      return live(key)?.value;
    },

    async setIfAbsent(key, value, ttlMs) {
      requireInteger(value, 'value');
      const existing = live(key);
      if (existing) return existing.value;
      entries.set(key, { value, expiresAt: expiry(ttlMs) });
      wrote();
      return value;
    },

    async adjust(key, delta, adjustOptions: KvAdjustOptions = {}): Promise<KvAdjustResult> {
      requireInteger(delta, 'delta');
      const existing = live(key);
      if (!existing && adjustOptions.requireExisting) return { applied: false, value: 0, missing: true };
      const current = existing?.value ?? 0;
      const next = current + delta;
      if ((adjustOptions.min !== undefined && next < adjustOptions.min) || (adjustOptions.max !== undefined && next > adjustOptions.max)) {
        return { applied: false, value: current };
      }
      if (existing) existing.value = next;
      else entries.set(key, { value: next, expiresAt: expiry(adjustOptions.ttlMs) });
      wrote();
      return { applied: true, value: next };
    },

    async seedAccount(key, value, seedOptions = {}) {
      requireInteger(value, 'value');
      const existing = live(key);
      if (existing) return existing.value;
      entries.set(key, { value, expiresAt: expiry(seedOptions.ttlMs) });
      if (seedOptions.funding !== undefined) fundings.set(key, { ...seedOptions.funding });
      else fundings.delete(key);
      wrote();
      return value;
    },

    async hold(key, holdId, delta, holdOptions = {}) {
      requireInteger(delta, 'delta');
      const existing = live(key);
      if (!existing) return { applied: false, value: 0, missing: true };
      applyFunding(key, existing, holdOptions.funding);
      const record = holdRecord(key, holdId);
      if (record !== undefined) return { applied: record.delta !== null, value: existing.value };
      const next = existing.value + delta;
      if ((holdOptions.min !== undefined && next < holdOptions.min) || (holdOptions.max !== undefined && next > holdOptions.max)) {
        return { applied: false, value: existing.value };
      }
      existing.value = next;
      holds.set(`${key}\0${holdId}`, { delta, expiresAt: now() + HOLD_RECORD_TTL_MS });
      wrote();
      return { applied: true, value: next };
    },

    async settle(key, holdId, finalDelta) {
      requireInteger(finalDelta, 'finalDelta');
      const record = holdRecord(key, holdId);
      if (record?.delta === null) return;
      if (record === undefined) {
        // Released before it arrived (or already gone): mark it, so a late hold is refused.
        holds.set(`${key}\0${holdId}`, { delta: null, expiresAt: now() + SETTLED_MARK_TTL_MS });
        wrote();
        return;
      }
      holds.delete(`${key}\0${holdId}`);
      const existing = live(key);
      if (existing) existing.value += finalDelta - record.delta;
    },

    async fund(key, funding) {
      const existing = live(key);
      if (!existing) return undefined;
      applyFunding(key, existing, funding);
      return existing.value;
    },

    async delete(key) {
      entries.delete(key);
      fundings.delete(key);
      leases.delete(key);
      dropText(key);
    },

    async acquireLease(key, holder, leaseOptions) {
      const time = now();
      const held = leases.get(key) ?? new Map<string, number>();
      for (const [name, expiresAt] of held) if (expiresAt <= time) held.delete(name);
      if (!held.has(holder) && held.size >= leaseOptions.max) {
        if (held.size === 0) leases.delete(key);
        return { applied: false, value: held.size };
      }
      held.set(holder, time + leaseOptions.ttlMs);
      leases.set(key, held);
      return { applied: true, value: held.size };
    },

    async releaseLease(key, holder) {
      const held = leases.get(key);
      if (!held) return;
      held.delete(holder);
      if (held.size === 0) leases.delete(key);
    },

    async getTexts(keys) {
      const time = now();
      return keys.map((key) => {
        const entry = texts.get(key);
        if (entry === undefined) return undefined;
        if (entry.expiresAt <= time) {
          dropText(key);
          return undefined;
        }
        return entry.value;
      });
    },

    async setTexts(keys, value, ttlMs) {
      const expiresAt = now() + ttlMs;
      const valueBytes = Buffer.byteLength(value, 'utf8');
      for (const key of keys) {
        dropText(key);
        const bytes = Buffer.byteLength(key, 'utf8') + valueBytes;
        // One entry over a whole bound would only evict everything, itself included.
        if (bytes > maxTextBytes || bytes > maxTenantTextBytes) continue;
        const name = tenantOf(key);
        texts.set(key, { value, expiresAt, bytes, tenant: name });
        textBytes += bytes;
        let tenant = tenants.get(name);
        if (tenant === undefined) {
          tenant = { keys: new Set(), bytes: 0 };
          tenants.set(name, tenant);
        }
        tenant.keys.add(key);
        tenant.bytes += bytes;
        // Past its share, the tenant's own stalest entries go, never another tenant's.
        while (tenant.keys.size > maxTenantTextEntries || tenant.bytes > maxTenantTextBytes) {
          const oldest = tenant.keys.values().next();
          if (oldest.done === true) break;
          dropText(oldest.value);
        }
      }
      while (texts.size > maxTextEntries || textBytes > maxTextBytes) {
        const oldest = texts.keys().next();
        if (oldest.done === true) break;
        dropText(oldest.value);
      }
    },

    async close() {
      entries.clear();
      fundings.clear();
      holds.clear();
      leases.clear();
      texts.clear();
      tenants.clear();
      textBytes = 0;
    },
  };
}

// Money and counters are integers everywhere; a fraction here is a caller's unit mistake.
function requireInteger(value: number, name: string): void {
  if (!Number.isSafeInteger(value)) throw new TypeError(`kv ${name} must be a safe integer, got ${value}`);
}
