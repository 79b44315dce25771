import { ApiError, call, isMissingEndpoint } from './api.ts';

/** What a key holder may see about their own key. */
export interface KeyHolderView {
  /** `me`: from /api/me; `models`: /api/me is missing, only the model list could be read. */
  source: 'me' | 'models';
  group: string | null;
  models: string[];
  name: string | null;
  balance: number | null | undefined;
  spent: number | undefined;
  expiresAt: string | null | undefined;
  enabled: boolean | undefined;
  limits: Record<string, number> | undefined;
  /** Recent usage rows or totals, as /api/me gives them. */
  usage: unknown;
  /** Why the key cannot be used right now (expired, out of balance…), in the gateway's words. */
  problem: string | null;
  altPrefix: string;
}

/**
 * Reads the key's own view. /api/me works even for an expired or empty key; on a gateway
 * without it, the model list stands in (it refuses such keys, and says why).
 */
export async function loadKeyHolderView(key: string): Promise<KeyHolderView> {
  try {
    const me = await call<Record<string, unknown>>('/api/me', { bearer: key });
    return fromMe(me);
  } catch (error) {
    if (!isMissingEndpoint(error)) throw error;
  }
  try {
    const list = await call<{ data?: Array<{ id?: string }> }>('/v1/models', { bearer: key });
    return { ...empty('models'), models: (list.data ?? []).map((model) => model.id ?? '').filter(Boolean) };
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return { ...empty('models'), problem: error.message };
    throw error;
  }
}

function fromMe(me: Record<string, unknown>): KeyHolderView {
  const key = (typeof me.key === 'object' && me.key !== null ? me.key : me) as Record<string, unknown>;
  const rawModels = me.models ?? key.models;
  const models = Array.isArray(rawModels)
    ? rawModels.map((model) => (typeof model === 'string' ? model : String((model as { id?: unknown; name?: unknown }).id ?? (model as { name?: unknown }).name ?? ''))).filter(Boolean)
    : [];
  const groupValue = me.group ?? key.group;
  const group = typeof groupValue === 'string' ? groupValue : typeof groupValue === 'object' && groupValue !== null ? String((groupValue as { name?: unknown }).name ?? '') : null;
  const problem = me.problem ?? me.status ?? me.state;
  return {
    source: 'me',
    group,
    models,
    name: typeof key.name === 'string' ? key.name : null,
    balance: typeof key.balance === 'number' || key.balance === null ? (key.balance as number | null) : undefined,
    spent: typeof key.spent === 'number' ? key.spent : undefined,
    expiresAt: typeof key.expiresAt === 'string' || key.expiresAt === null ? (key.expiresAt as string | null) : undefined,
    enabled: typeof key.enabled === 'boolean' ? key.enabled : undefined,
    limits: typeof key.limits === 'object' && key.limits !== null ? (key.limits as Record<string, number>) : undefined,
    usage: me.usage ?? me.recentUsage,
    problem: typeof problem === 'string' && problem !== 'active' && problem !== 'ok' ? problem : null,
    altPrefix: typeof me.altPrefix === 'string' ? me.altPrefix : 'antigravity',
  };
}

function empty(source: KeyHolderView['source']): KeyHolderView {
  return {
    source,
    group: null,
    models: [],
    name: null,
    balance: undefined,
    spent: undefined,
    expiresAt: undefined,
    enabled: undefined,
    limits: undefined,
    usage: undefined,
    problem: null,
    altPrefix: 'antigravity',
  };
}
