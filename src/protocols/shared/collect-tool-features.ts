import type { ProviderFeature, ProviderFeatureKind, RequestPeek } from '../protocol-codec.ts';
import { isRecord } from './is-record.ts';

/** What one declared tool asks of the provider, by the protocol's own reading of it. */
export type ToolFeatureReader = (tool: Record<string, unknown>) => readonly { kind: ProviderFeatureKind; name: string; key?: string }[] | undefined;

/**
 * The provider features a `tools` array declares, each named by its index (`tools[2]`), so a
 * refusal points at the tool the client wrote. Functions and other client-run tools read as none.
 */
export function collectToolFeatures(tools: unknown, read: ToolFeatureReader, into: ProviderFeature[], field = 'tools'): void {
  if (!Array.isArray(tools)) return;
  for (let index = 0; index < tools.length; index += 1) {
    const tool: unknown = tools[index];
    if (!isRecord(tool)) continue;
    for (const feature of read(tool) ?? []) {
      into.push({
        kind: feature.kind,
        field: `${field}[${index}]`,
        name: feature.name,
        tool: feature.key === undefined ? { index } : { index, key: feature.key },
      });
    }
  }
}

/** A field present with any value but null: what the provider acts on. */
export function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** Adds the features to a peek only when there are some, so a plain request's peek keeps its shape. */
export function withFeatures(peek: RequestPeek, features: readonly ProviderFeature[] | undefined): RequestPeek {
  if (features !== undefined) peek.providerFeatures = features;
  return peek;
}

/**
 * The body without the declared tools these features name: a new body, the client's untouched.
 * A tool named by its own key (Gemini) loses that key, and its entry goes when nothing is left.
 */
export function withoutTools(body: Record<string, unknown>, features: readonly ProviderFeature[]): Record<string, unknown> {
  if (!Array.isArray(body.tools)) return body;
  const drop = new Set<number>();
  const keys = new Map<number, string[]>();
  for (const feature of features) {
    if (feature.tool === undefined) continue;
    if (feature.tool.key === undefined) drop.add(feature.tool.index);
    else keys.set(feature.tool.index, [...(keys.get(feature.tool.index) ?? []), feature.tool.key]);
  }
  const tools = body.tools.flatMap((tool: unknown, index) => {
    if (drop.has(index)) return [];
    const removed = keys.get(index);
    if (removed === undefined || !isRecord(tool)) return [tool];
    const kept = Object.fromEntries(Object.entries(tool).filter(([key]) => !removed.includes(key)));
    return Object.keys(kept).length === 0 ? [] : [kept];
  });
  const { tools: _tools, ...rest } = body;
  return tools.length === 0 ? rest : { ...rest, tools };
}
