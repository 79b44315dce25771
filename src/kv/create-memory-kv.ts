import type { Kv, KvAdjustOptions, KvAdjustResult } from './kv.ts';

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

    async delete(key) {
      entries.delete(key);
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
