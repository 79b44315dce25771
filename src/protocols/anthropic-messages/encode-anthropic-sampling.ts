import type { ChatRequest } from '../../core/chat-request.ts';
import type { Warning } from '../../core/warning.ts';

/** With thinking on, Claude accepts top_p from 0.95 to 1 only. */
export const MIN_TOP_P_WITH_THINKING = 0.95;

export interface AnthropicSampling {
  temperature?: number;
  topP?: number;
  topK?: number;
}

/**
 * Claude's sampling rules, the same on Anthropic's API and on Bedrock (one function for both,
 * so a request gets the same treatment whichever channel serves it): temperature at most 1;
 * with thinking on, only temperature 1, top_p of at least 0.95, and no top_k. A value that is
 * not sent (or is clamped) is a warning; a value that is sent as asked is not.
 */
export function encodeAnthropicSampling(
  request: Pick<ChatRequest, 'temperature' | 'topP' | 'topK'>,
  thinkingOn: boolean,
  warnings: Warning[],
): AnthropicSampling {
  const sampling: AnthropicSampling = {};
  if (request.temperature !== undefined) {
    if (thinkingOn && request.temperature !== 1) {
      warnings.push({ type: 'compatibility', feature: 'temperature', detail: 'Claude allows only temperature 1 with thinking; it was not sent.' });
    } else if (request.temperature > 1) {
      warnings.push({ type: 'clamped', feature: 'temperature', from: request.temperature, to: 1 });
      sampling.temperature = 1;
    } else sampling.temperature = request.temperature;
  }
  if (request.topP !== undefined) {
    if (thinkingOn && request.topP < MIN_TOP_P_WITH_THINKING) {
      warnings.push({ type: 'compatibility', feature: 'topP', detail: 'Claude allows top_p of 0.95 or more with thinking; it was not sent.' });
    } else sampling.topP = request.topP;
  }
  if (request.topK !== undefined) {
    if (thinkingOn) {
      warnings.push({ type: 'compatibility', feature: 'topK', detail: 'Claude does not allow top_k with thinking; it was not sent.' });
    } else sampling.topK = request.topK;
  }
  return sampling;
}
