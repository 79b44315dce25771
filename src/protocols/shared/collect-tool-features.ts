import type { ProviderFeature, ProviderFeatureKind, RequestPeek } from '../protocol-codec.ts';
import { isRecord } from './is-record.ts';

/** What one declared tool asks of the provider, by the protocol's own reading of it. */
export type ToolFeatureReader = (tool: Record<string, unknown>) => readonly { kind: ProviderFeatureKind; name: string }[] | undefined;

/**
 * The provider features a `tools` array declares, each named by its index (`tools[2]`), so a
 * refusal points at the tool the client wrote. Functions and other client-run tools read as none.
 */
export function collectToolFeatures(tools: unknown, read: ToolFeatureReader, into: ProviderFeature[], field = 'tools'): void {
  if (!Array.isArray(tools)) return;
  for (let index = 0; index < tools.length; index += 1) {
    const tool: unknown = tools[index];
    if (!isRecord(tool)) continue;
    for (const feature of read(tool) ?? []) into.push({ kind: feature.kind, field: `${field}[${index}]`, name: feature.name });
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
