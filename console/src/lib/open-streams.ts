/**
 * Open streams, read from the Prometheus text at /metrics when the gateway exports such a gauge.
 * Returns null when it does not (or /metrics is absent), and the console then shows "—".
 */
export async function loadOpenStreams(bearer: string): Promise<number | null> {
  try {
    const response = await fetch('/metrics', { headers: { authorization: `Bearer ${bearer}` }, credentials: 'omit' });
    if (!response.ok) return null;
    return parseOpenStreams(await response.text());
  } catch {
    return null;
  }
}

export function parseOpenStreams(text: string): number | null {
  let total: number | null = null;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+([-+\d.eE]+|NaN)/.exec(line);
    if (!match || !/(open|active|inflight|in_flight)_streams?$/.test(match[1]!)) continue;
    const value = Number(match[3]);
    if (Number.isFinite(value)) total = (total ?? 0) + value;
  }
  return total;
}
