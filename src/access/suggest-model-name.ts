/**
 * When a requested model name is not in the group, finds the name the user most likely meant:
 * one that differs only by surrounding spaces, by case, by a vendor prefix (`openai/gpt-4o-mini`,
 * the OpenRouter and LiteLLM habit), or by a small typo. Returns whole sentences that say exactly
 * what differs, or undefined when nothing is close.
 */
export function suggestModelName(requested: string, available: readonly string[]): string | undefined {
  const trimmed = requested.trim();
  for (const name of available) {
    if (name === trimmed && requested !== trimmed) {
      return `Did you mean "${name}"? The name has ${describeSpaces(requested)}.`;
    }
  }
  const lower = trimmed.toLowerCase();
  for (const name of available) {
    if (name.toLowerCase() === lower) return `Did you mean "${name}"? Model names are case-sensitive.`;
  }
  // Only when the full name is not served (a gateway may name models `org/model` itself).
  const slash = trimmed.indexOf('/');
  if (slash > 0) {
    const bare = trimmed.slice(slash + 1).toLowerCase();
    const match = available.find((name) => name.toLowerCase() === bare);
    if (match !== undefined) {
      return `Did you mean "${match}"? This gateway names the model without the "${trimmed.slice(0, slash + 1)}" prefix.`;
    }
  }
  let best: { name: string; distance: number } | undefined;
  for (const name of available) {
    const distance = editDistance(lower, name.toLowerCase());
    const allowed = Math.max(1, Math.min(3, Math.floor(name.length / 5)));
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best ? `Did you mean "${best.name}"?` : undefined;
}

function describeSpaces(requested: string): string {
  const leading = requested.length - requested.trimStart().length > 0;
  const trailing = requested.length - requested.trimEnd().length > 0;
  if (leading && trailing) return 'spaces before and after it';
  return leading ? 'a leading space' : 'a trailing space';
}

/** Levenshtein distance with one rolling row; names are short, so this is cheap. */
function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    let previousDiagonal = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = row[j] ?? 0;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(above + 1, (row[j - 1] ?? 0) + 1, previousDiagonal + cost);
      previousDiagonal = above;
    }
  }
  return row[b.length] ?? 0;
}
