import type { ProviderFeature } from '../protocol-codec.ts';
import { collectToolFeatures, type ToolFeatureReader } from '../shared/collect-tool-features.ts';
import { isRecord } from '../shared/is-record.ts';

/**
 * The Gemini tools Google bills apart from tokens or that reach the upstream account's objects:
 * grounding with Google Search or Maps (a fee per grounded prompt) and File Search (the
 * account's stores). Code execution and URL context cost tokens only. Fields in either JSON
 * spelling (`googleSearch`, `google_search`), as the API takes both.
 */
export function peekGeminiFeatures(body: unknown): readonly ProviderFeature[] | undefined {
  if (!isRecord(body)) return undefined;
  const features: ProviderFeature[] = [];
  collectToolFeatures(body.tools, readGeminiTool, features);
  return features.length === 0 ? undefined : features;
}

const GROUNDING: readonly (readonly [string, string, string])[] = [
  ['googleSearch', 'google_search', 'google_search'],
  ['googleSearchRetrieval', 'google_search_retrieval', 'google_search'],
  ['googleMaps', 'google_maps', 'google_maps'],
];

const readGeminiTool: ToolFeatureReader = (tool) => {
  const found: { kind: 'server-tools' | 'stored-objects'; name: string; key: string }[] = [];
  const add = (kind: 'server-tools' | 'stored-objects', name: string, ...spellings: string[]) => {
    for (const key of spellings) if (tool[key] !== undefined) found.push({ kind, name, key });
  };
  for (const [camel, snake, name] of GROUNDING) add('server-tools', name, camel, snake);
  add('stored-objects', 'file_search', 'fileSearch', 'file_search');
  return found;
};
