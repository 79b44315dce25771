import type { ChatRequest, ReasoningConfig, ReasoningEffort, ResponseFormat } from '../../core/chat-request.ts';
import { invalidRequest } from '../../core/gateway-error.ts';
import type { Warning } from '../../core/warning.ts';
import { isRecord } from '../shared/is-record.ts';
import { convertGeminiSchema } from './convert-gemini-schema.ts';

type GenerationFields = Pick<
  ChatRequest,
  | 'temperature'
  | 'topP'
  | 'topK'
  | 'maxOutputTokens'
  | 'stopSequences'
  | 'candidateCount'
  | 'seed'
  | 'presencePenalty'
  | 'frequencyPenalty'
  | 'responseFormat'
  | 'reasoning'
>;

const NUMBER_FIELDS = ['temperature', 'topP', 'topK', 'maxOutputTokens', 'candidateCount', 'seed', 'presencePenalty', 'frequencyPenalty'] as const;

/** `generationConfig` → canonical sampling, output and reasoning settings. */
export function decodeGeminiGenerationConfig(config: unknown, warnings: Warning[]): GenerationFields {
  if (config === undefined || config === null) return {};
  if (!isRecord(config)) throw invalidRequest('`generationConfig` must be an object.', 'generationConfig');
  const fields: GenerationFields = {};
  for (const name of NUMBER_FIELDS) {
    const value = config[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw invalidRequest(`\`generationConfig.${name}\` must be a number.`, `generationConfig.${name}`);
    }
    fields[name] = value;
  }
  const stops = config.stopSequences;
  if (stops !== undefined && stops !== null) {
    if (!Array.isArray(stops) || !stops.every((stop) => typeof stop === 'string')) {
      throw invalidRequest('`generationConfig.stopSequences` must be an array of strings.', 'generationConfig.stopSequences');
    }
    fields.stopSequences = stops;
  }
  const responseFormat = decodeResponseFormat(config, warnings);
  if (responseFormat) fields.responseFormat = responseFormat;
  const reasoning = decodeThinkingConfig(config.thinkingConfig);
  if (reasoning) fields.reasoning = reasoning;
  const modalities = config.responseModalities;
  if (Array.isArray(modalities) && modalities.some((modality) => modality !== 'TEXT')) {
    warnings.push({ type: 'unsupported', feature: 'generationConfig.responseModalities', detail: 'only TEXT is produced' });
  }
  for (const name of ['speechConfig', 'imageConfig', 'mediaResolution', 'responseLogprobs', 'logprobs']) {
    if (config[name] !== undefined) warnings.push({ type: 'unsupported', feature: `generationConfig.${name}` });
  }
  return fields;
}

function decodeResponseFormat(config: Record<string, unknown>, warnings: Warning[]): ResponseFormat | undefined {
  const mimeType = config.responseMimeType;
  if (mimeType === undefined || mimeType === null) return undefined;
  if (mimeType === 'text/plain') return { type: 'text' };
  if (mimeType !== 'application/json') {
    warnings.push({ type: 'unsupported', feature: 'generationConfig.responseMimeType', detail: String(mimeType) });
    return undefined;
  }
  if (isRecord(config.responseJsonSchema)) return { type: 'json', schema: config.responseJsonSchema };
  if (isRecord(config.responseSchema)) return { type: 'json', schema: convertGeminiSchema(config.responseSchema) };
  return { type: 'json' };
}

const LEVELS: Record<string, ReasoningEffort> = { MINIMAL: 'minimal', LOW: 'low', MEDIUM: 'medium', HIGH: 'high' };

/**
 * `thinkingConfig` → canonical reasoning. A budget of 0 turns thinking off and -1 asks for a
 * dynamic budget. `includeThoughts` alone only shows or hides thoughts the model produces
 * anyway, so with no budget or level it says nothing about whether to think.
 */
function decodeThinkingConfig(thinking: unknown): ReasoningConfig | undefined {
  if (!isRecord(thinking)) return undefined;
  const budget = typeof thinking.thinkingBudget === 'number' ? thinking.thinkingBudget : undefined;
  const level = typeof thinking.thinkingLevel === 'string' ? LEVELS[thinking.thinkingLevel.toUpperCase()] : undefined;
  if (budget === 0) return { enabled: false };
  if (budget !== undefined && budget > 0) return { enabled: true, budgetTokens: budget, ...(level ? { effort: level } : {}) };
  if (level !== undefined) return { enabled: true, effort: level };
  if (budget !== undefined || thinking.includeThoughts === true) return { enabled: true };
  return undefined;
}
