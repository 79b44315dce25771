import type { FinishReason, UnifiedFinishReason } from '../../core/finish-reason.ts';

export type OpenAiResponsesStatus = 'completed' | 'incomplete';
export type OpenAiIncompleteDetails = { reason: 'max_output_tokens' | 'content_filter' } | null;

/**
 * Responses has no finish reason: it has a status, an incomplete reason, and function_call
 * items in the output. Tool calls are read from the content, as the API intends.
 */
export function mapOpenAiResponsesStatus(status: unknown, incompleteReason: unknown, hasToolCalls: boolean): FinishReason {
  if (status === 'incomplete') {
    if (incompleteReason === 'max_output_tokens') return { unified: 'length', raw: 'max_output_tokens' };
    if (incompleteReason === 'content_filter') return { unified: 'content-filter', raw: 'content_filter' };
    return { unified: 'other', raw: typeof incompleteReason === 'string' ? incompleteReason : 'incomplete' };
  }
  if (status === 'failed') return { unified: 'error', raw: 'failed' };
  if (hasToolCalls) return { unified: 'tool-calls', raw: typeof status === 'string' ? status : 'completed' };
  return typeof status === 'string' ? { unified: 'stop', raw: status } : { unified: 'stop' };
}

/** Canonical → status and incomplete details, from `unified` only. */
export function toOpenAiResponsesStatus(unified: UnifiedFinishReason): {
  status: OpenAiResponsesStatus;
  incomplete_details: OpenAiIncompleteDetails;
} {
  switch (unified) {
    case 'length':
      return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
    case 'content-filter':
      return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
    case 'stop':
    case 'tool-calls':
    case 'error':
    case 'other':
      return { status: 'completed', incomplete_details: null };
    default: {
      const unreachable: never = unified;
      return unreachable;
    }
  }
}
