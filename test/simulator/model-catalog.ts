import type { SimulatorProtocol } from './recorded-request.ts';
import { errorFamily } from './provider-errors.ts';

export interface ModelCatalog {
  openai: readonly string[];
  anthropic: readonly string[];
  gemini: readonly string[];
}

export const DEFAULT_MODEL_CATALOG: ModelCatalog = {
  openai: ['gpt-4o', 'gpt-4o-mini'],
  anthropic: ['claude-sonnet-4-6', 'claude-haiku-4-5'],
  gemini: ['gemini-2.5-flash', 'gemini-2.5-pro'],
};

const CREATED_SECONDS = 1_715_367_049;
const CREATED_AT = '2026-02-17T00:00:00Z';

function displayName(id: string): string {
  return id
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

function modelsOf(catalog: ModelCatalog, protocol: SimulatorProtocol): readonly string[] {
  return catalog[errorFamily(protocol)];
}

function modelEntry(protocol: SimulatorProtocol, id: string): unknown {
  const family = errorFamily(protocol);
  switch (family) {
    case 'openai':
      return { id, object: 'model', created: CREATED_SECONDS, owned_by: 'system' };
    case 'anthropic':
      return { type: 'model', id, display_name: displayName(id), created_at: CREATED_AT };
    case 'gemini':
      return {
        name: `models/${id}`,
        version: '001',
        displayName: displayName(id),
        description: `${displayName(id)} (simulated)`,
        inputTokenLimit: 1_048_576,
        outputTokenLimit: 65_536,
        supportedGenerationMethods: ['generateContent', 'countTokens', 'createCachedContent', 'batchGenerateContent'],
        temperature: 1,
        topP: 0.95,
        topK: 64,
        maxTemperature: 2,
        thinking: true,
      };
    default: {
      const unreachable: never = family;
      return unreachable;
    }
  }
}

export function listModelsBody(catalog: ModelCatalog, protocol: SimulatorProtocol): unknown {
  const ids = modelsOf(catalog, protocol);
  const entries = ids.map((id) => modelEntry(protocol, id));
  const family = errorFamily(protocol);
  switch (family) {
    case 'openai':
      return { object: 'list', data: entries };
    case 'anthropic':
      return { data: entries, has_more: false, first_id: ids[0] ?? null, last_id: ids.at(-1) ?? null };
    case 'gemini':
      return { models: entries };
    default: {
      const unreachable: never = family;
      return unreachable;
    }
  }
}

/** The single-model body, or undefined when the catalog has no such model (a 404). */
export function getModelBody(catalog: ModelCatalog, protocol: SimulatorProtocol, id: string): unknown {
  return modelsOf(catalog, protocol).includes(id) ? modelEntry(protocol, id) : undefined;
}

export function countTokensBody(protocol: SimulatorProtocol, tokens: number): unknown {
  return errorFamily(protocol) === 'gemini'
    ? { totalTokens: tokens, promptTokensDetails: [{ modality: 'TEXT', tokenCount: tokens }] }
    : { input_tokens: tokens };
}
