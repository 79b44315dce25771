import type { FinishReason, UnifiedFinishReason } from '../../core/finish-reason.ts';

/**
 * Gemini `finishReason` → canonical. Gemini has no "tool" reason: function calls arrive with
 * `STOP`, so the caller says whether the candidate held a function call and we detect it by
 * content. RECITATION (output stopped because it repeated training data) is a policy stop that
 * cut the answer short, so it maps to content-filter rather than a clean stop; a client that
 * sees `stop` would wrongly treat the truncated text as complete.
 */
export function mapGeminiFinishReason(raw: string, hasFunctionCall: boolean): FinishReason {
  return { unified: unifyGeminiFinishReason(raw, hasFunctionCall), raw };
}

function unifyGeminiFinishReason(raw: string, hasFunctionCall: boolean): UnifiedFinishReason {
  switch (raw) {
    case 'STOP':
      return hasFunctionCall ? 'tool-calls' : 'stop';
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
    case 'IMAGE_PROHIBITED_CONTENT':
    case 'IMAGE_RECITATION':
    case 'LANGUAGE':
    case 'RECITATION':
      return 'content-filter';
    default:
      // MALFORMED_FUNCTION_CALL, OTHER, FINISH_REASON_UNSPECIFIED, UNEXPECTED_TOOL_CALL and
      // any reason added after this was written.
      return 'other';
  }
}

/** Canonical → Gemini. Only the unified value is used, so no foreign raw word leaks out. */
export function encodeGeminiFinishReason(reason: FinishReason): string {
  switch (reason.unified) {
    case 'stop':
    case 'tool-calls':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    case 'content-filter':
      return 'SAFETY';
    case 'error':
    case 'other':
      return 'OTHER';
    default: {
      const unreachable: never = reason.unified;
      return unreachable;
    }
  }
}
