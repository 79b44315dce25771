/** What applying a config file did to one kind of record, by name. */
export interface KindSummary {
  created: string[];
  updated: string[];
  unchanged: string[];
}

export interface ConfigApplySummary {
  groups: KindSummary;
  channels: KindSummary;
  keys: KindSummary;
  prices: KindSummary;
  /** Present when the file has the section. */
  users?: KindSummary;
  plans?: KindSummary;
  subscriptions?: KindSummary;
  /** What looks wrong though it was applied (e.g. an OpenAI-compatible base without a version); present when there is any. */
  warnings?: string[];
}

export function emptyKindSummary(): KindSummary {
  return { created: [], updated: [], unchanged: [] };
}

/** Order-sensitive structural equality for the JSON-like values records hold. */
export function sameValue(left: unknown, right: unknown): boolean {
  return JSON.stringify(normalise(left)) === JSON.stringify(normalise(right));
}

function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalise);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, item]) => item !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, item]) => [key, normalise(item)]),
    );
  }
  return value;
}
