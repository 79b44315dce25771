import type { ProviderFeature } from '../protocol-codec.ts';
import { collectToolFeatures, isSet, type ToolFeatureReader } from '../shared/collect-tool-features.ts';
import { isRecord } from '../shared/is-record.ts';

/**
 * The Messages fields Anthropic bills apart from tokens or that reach the upstream account's
 * objects: its server tools (`web_search_…` at a fee per search, `web_fetch_…`,
 * `code_execution_…` at a fee per container hour), `mcp_servers` (Anthropic calls any URL the
 * client names) and `container` (one the account keeps). Client tools (`bash_…`,
 * `text_editor_…`, `computer_…`, functions) run on the client and cost tokens only.
 */
export function peekAnthropicFeatures(body: unknown): readonly ProviderFeature[] | undefined {
  if (!isRecord(body)) return undefined;
  const features: ProviderFeature[] = [];
  collectToolFeatures(body.tools, readAnthropicTool, features);
  if (Array.isArray(body.mcp_servers) && body.mcp_servers.length > 0) features.push({ kind: 'server-tools', field: 'mcp_servers', name: 'mcp' });
  if (isSet(body.container)) features.push({ kind: 'stored-objects', field: 'container', name: 'container' });
  return features.length === 0 ? undefined : features;
}

const SERVER_TOOLS = ['web_search', 'web_fetch', 'code_execution'] as const;

const readAnthropicTool: ToolFeatureReader = (tool) => {
  const type = tool.type;
  if (typeof type !== 'string') return undefined;
  // Versioned names: web_search_20250305, code_execution_20250825, …
  const name = SERVER_TOOLS.find((server) => type.startsWith(`${server}_`));
  return name === undefined ? undefined : [{ kind: 'server-tools', name }];
};
