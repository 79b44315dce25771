import type { ReasoningConfig, ReasoningEffort } from '../../core/chat-request.ts';
import type { Warning } from '../../core/warning.ts';

/** The efforts both OpenAI APIs accept (`reasoning_effort` in Chat, `reasoning.effort` in Responses). */
export const OPENAI_REASONING_EFFORTS: readonly ReasoningEffort[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'];

export function isOpenAiReasoningEffort(value: string): value is ReasoningEffort {
  return (OPENAI_REASONING_EFFORTS as readonly string[]).includes(value);
}

/** OpenAI speaks efforts, not budgets: a budget-only request gets the nearest effort. */
export function encodeOpenAiReasoningEffort(reasoning: ReasoningConfig, warnings: Warning[]): ReasoningEffort | undefined {
  if (!reasoning.enabled) return 'none';
  if (reasoning.effort !== undefined) return reasoning.effort;
  if (reasoning.budgetTokens === undefined) return undefined;
  const effort = reasoning.budgetTokens <= 2048 ? 'low' : reasoning.budgetTokens <= 8192 ? 'medium' : 'high';
  warnings.push({ type: 'clamped', feature: 'reasoning.budget_tokens', from: reasoning.budgetTokens, to: effort });
  return effort;
}
