import type { ChatRequest, ReasoningConfig, ReasoningEffort } from '../../core/chat-request.ts';
import type { Warning } from '../../core/warning.ts';

/** Gemini rejects more than five stop sequences. */
const MAX_STOP_SEQUENCES = 5;

/**
 * Effort → thinking budget. 24576 is the largest budget every 2.5 model accepts (Flash's
 * ceiling), so the efforts above `high` are clamped to it rather than risk a 400.
 */
const EFFORT_BUDGETS: Record<Exclude<ReasoningEffort, 'none'>, number> = {
  minimal: 128,
  low: 1024,
  medium: 8192,
  high: 24576,
  xhigh: 24576,
  max: 24576,
};

/** Canonical sampling, output and reasoning settings → `generationConfig` (undefined when empty). */
export function encodeGeminiGenerationConfig(request: ChatRequest, warnings: Warning[]): Record<string, unknown> | undefined {
  const config: Record<string, unknown> = {};
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.topP !== undefined) config.topP = request.topP;
  if (request.topK !== undefined) config.topK = request.topK;
  if (request.maxOutputTokens !== undefined) config.maxOutputTokens = request.maxOutputTokens;
  if (request.stopSequences !== undefined) {
    let stops = request.stopSequences;
    if (stops.length > MAX_STOP_SEQUENCES) {
      stops = stops.slice(0, MAX_STOP_SEQUENCES);
      warnings.push({ type: 'clamped', feature: 'stopSequences', from: request.stopSequences.length, to: MAX_STOP_SEQUENCES });
    }
    config.stopSequences = stops;
  }
  if (request.candidateCount !== undefined) config.candidateCount = request.candidateCount;
  if (request.seed !== undefined) config.seed = request.seed;
  if (request.presencePenalty !== undefined) config.presencePenalty = request.presencePenalty;
  if (request.frequencyPenalty !== undefined) config.frequencyPenalty = request.frequencyPenalty;
  const format = request.responseFormat;
  if (format?.type === 'json') {
    config.responseMimeType = 'application/json';
    if (format.schema !== undefined) config.responseJsonSchema = format.schema;
  }
  if (request.reasoning !== undefined) config.thinkingConfig = encodeThinkingConfig(request.reasoning, warnings);
  return Object.keys(config).length === 0 ? undefined : config;
}

function encodeThinkingConfig(reasoning: ReasoningConfig, warnings: Warning[]): Record<string, unknown> {
  if (!reasoning.enabled || reasoning.effort === 'none') return { thinkingBudget: 0 };
  if (reasoning.budgetTokens !== undefined) return { includeThoughts: true, thinkingBudget: reasoning.budgetTokens };
  if (reasoning.effort === undefined) return { includeThoughts: true, thinkingBudget: -1 };
  if (reasoning.effort === 'xhigh' || reasoning.effort === 'max') {
    warnings.push({ type: 'clamped', feature: 'reasoning.effort', from: reasoning.effort, to: 'high' });
  }
  return { includeThoughts: true, thinkingBudget: EFFORT_BUDGETS[reasoning.effort] };
}
