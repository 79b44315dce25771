import type { ReasoningConfig, ReasoningEffort } from '../../core/chat-request.ts';
import type { Warning } from '../../core/warning.ts';
import type { AnthropicThinkingConfig } from './anthropic-wire-types.ts';

/** Anthropic's smallest thinking budget. */
export const MIN_THINKING_BUDGET = 1024;

/** Effort → budget, after LiteLLM's table (low 1024, medium 2048, high 4096), extended upward. */
const EFFORT_BUDGETS: Record<Exclude<ReasoningEffort, 'none'>, number> = {
  minimal: 1024,
  low: 1024,
  medium: 2048,
  high: 4096,
  xhigh: 8192,
  max: 16384,
};

/** Thinking asked for without a budget or effort: a medium budget works on every thinking model. */
const DEFAULT_BUDGET = EFFORT_BUDGETS.medium;

export interface EncodedThinking {
  thinking?: AnthropicThinkingConfig;
  maxTokens: number;
}

/**
 * Canonical reasoning → `thinking:{type:"enabled", budget_tokens}`. Anthropic wants
 * 1024 ≤ budget < max_tokens and counts thinking inside max_tokens, so when the budget does
 * not fit, max_tokens grows by the budget and the answer keeps its own allowance.
 */
export function encodeAnthropicThinking(
  reasoning: ReasoningConfig | undefined,
  maxTokens: number,
  maxTokensExplicit: boolean,
  warnings: Warning[],
): EncodedThinking {
  if (reasoning === undefined || !reasoning.enabled || reasoning.effort === 'none') return { maxTokens };
  let budget = reasoning.budgetTokens ?? (reasoning.effort === undefined ? DEFAULT_BUDGET : EFFORT_BUDGETS[reasoning.effort]);
  if (budget < MIN_THINKING_BUDGET) {
    warnings.push({ type: 'clamped', feature: 'reasoning.budgetTokens', from: budget, to: MIN_THINKING_BUDGET });
    budget = MIN_THINKING_BUDGET;
  }
  let encodedMax = maxTokens;
  if (budget >= maxTokens) {
    encodedMax = budget + maxTokens;
    if (maxTokensExplicit) warnings.push({ type: 'clamped', feature: 'max_tokens', from: maxTokens, to: encodedMax });
  }
  return { thinking: { type: 'enabled', budget_tokens: budget }, maxTokens: encodedMax };
}
