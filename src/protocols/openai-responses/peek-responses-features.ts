import type { ProviderFeature } from '../protocol-codec.ts';
import { collectToolFeatures, isSet, type ToolFeatureReader } from '../shared/collect-tool-features.ts';
import { isRecord } from '../shared/is-record.ts';

/**
 * The Responses fields the provider bills apart from tokens or that reach the upstream
 * account's objects: `background` (the answer is generated after the request ends, out of the
 * gateway's sight), `service_tier: "priority"`, a stored `prompt` or `conversation`, and the
 * hosted tools (web search, file search over vector stores, code interpreter and its
 * containers, image generation, remote MCP servers).
 */
export function peekResponsesFeatures(body: unknown): readonly ProviderFeature[] | undefined {
  if (!isRecord(body)) return undefined;
  const features: ProviderFeature[] = [];
  if (body.background === true) features.push({ kind: 'background', field: 'background', name: 'background' });
  if (body.service_tier === 'priority') features.push({ kind: 'priority-tier', field: 'service_tier', name: 'priority' });
  if (isSet(body.prompt)) features.push({ kind: 'stored-objects', field: 'prompt', name: 'prompt' });
  if (isSet(body.conversation)) features.push({ kind: 'stored-objects', field: 'conversation', name: 'conversation' });
  collectToolFeatures(body.tools, readResponsesTool, features);
  return features.length === 0 ? undefined : features;
}

const readResponsesTool: ToolFeatureReader = (tool) => {
  const type = tool.type;
  if (typeof type !== 'string') return undefined;
  // web_search, web_search_preview and their dated versions.
  if (type.startsWith('web_search')) return [{ kind: 'server-tools', name: 'web_search' }];
  if (type === 'file_search')
    return [
      { kind: 'server-tools', name: 'file_search' },
      { kind: 'stored-objects', name: 'vector_store_ids' },
    ];
  if (type === 'code_interpreter') {
    // A container id (a string) names one the upstream account keeps; `{type: "auto"}` makes a new one.
    const container = typeof tool.container === 'string' ? [{ kind: 'stored-objects' as const, name: 'container' }] : [];
    return [{ kind: 'server-tools', name: 'code_interpreter' }, ...container];
  }
  if (type === 'image_generation') return [{ kind: 'server-tools', name: 'image_generation' }];
  if (type === 'mcp') return [{ kind: 'server-tools', name: 'mcp' }];
  return undefined;
};
