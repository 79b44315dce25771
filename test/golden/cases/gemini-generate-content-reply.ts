import type { ReplySpec } from './golden-cases.ts';
import { json, splitText, type ReplyBuilder } from './recorded-reply.ts';

const RESPONSE_ID = 'GoldenGeminiResponse0001';
/** Gemini signs the part after its thoughts; it must reach Gemini clients unchanged. */
export const GEMINI_REPLY_SIGNATURE = 'CiwBReplyGeminiThoughtSignature0123456789abcdefABCDEF==';

function finishReason(reply: ReplySpec): string {
  switch (reply.finish) {
    case 'stop':
    case 'stop-sequence':
    case 'tool-calls':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    default: {
      const unreachable: never = reply.finish;
      return unreachable;
    }
  }
}

/** Gemini counts thoughts apart from candidates; the prompt count includes cached content. */
function usageMetadata(reply: ReplySpec) {
  const { input, output, cacheRead, reasoning } = reply.usage;
  return {
    promptTokenCount: input,
    candidatesTokenCount: output - (reasoning ?? 0),
    totalTokenCount: input + output,
    ...(cacheRead === undefined ? {} : { cachedContentTokenCount: cacheRead }),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: input }],
    ...(reasoning === undefined ? {} : { thoughtsTokenCount: reasoning }),
  };
}

function replyParts(reply: ReplySpec): unknown[] {
  const parts: unknown[] = [];
  if (reply.reasoning) parts.push({ text: reply.reasoning.text, thought: true });
  if (reply.text !== undefined) parts.push({ text: reply.text, ...(reply.reasoning ? { thoughtSignature: GEMINI_REPLY_SIGNATURE } : {}) });
  // AI Studio sends function calls without ids; the gateway has to make them up.
  for (const call of reply.toolCalls ?? []) parts.push({ functionCall: { name: call.name, args: call.arguments } });
  return parts;
}

const RATE_LIMITED = {
  error: {
    code: 429,
    message: 'Resource has been exhausted (e.g. check quota).',
    status: 'RESOURCE_EXHAUSTED',
  },
};

/** generateContent / streamGenerateContent?alt=sse as generativelanguage.googleapis.com answers. */
export const buildGeminiReply: ReplyBuilder = (goldenCase, mode, model) => {
  const outcome = goldenCase.outcome;
  if (outcome.kind === 'rate-limited') return json(429, RATE_LIMITED);
  if (mode === 'plain') {
    if (outcome.kind !== 'reply') throw new Error('a mid-stream error needs a stream');
    const reply = outcome.reply;
    return json(200, {
      candidates: [{ content: { parts: replyParts(reply), role: 'model' }, finishReason: finishReason(reply), index: 0 }],
      usageMetadata: usageMetadata(reply),
      modelVersion: model,
      responseId: RESPONSE_ID,
    });
  }

  let body = '';
  const chunk = (parts: unknown[], last?: ReplySpec, promptTokens = 0) => {
    const candidate: Record<string, unknown> = { content: { parts, role: 'model' } };
    if (last) candidate.finishReason = finishReason(last);
    candidate.index = 0;
    const usage = last
      ? usageMetadata(last)
      : { promptTokenCount: promptTokens, totalTokenCount: promptTokens, promptTokensDetails: [{ modality: 'TEXT', tokenCount: promptTokens }] };
    body += `data: ${JSON.stringify({ candidates: [candidate], usageMetadata: usage, modelVersion: model, responseId: RESPONSE_ID })}\r\n\r\n`;
  };
  if (outcome.kind === 'mid-stream-error') {
    for (const text of splitText(outcome.partialText)) chunk([{ text }], undefined, 12);
    body += `data: ${JSON.stringify({ error: { code: 500, message: 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting', status: 'INTERNAL' } })}\r\n\r\n`;
    return { status: 200, format: 'sse', body };
  }
  const reply = outcome.reply;
  const prompt = reply.usage.input;
  if (reply.reasoning) for (const text of splitText(reply.reasoning.text)) chunk([{ text, thought: true }], undefined, prompt);
  const pieces = reply.text === undefined ? [] : splitText(reply.text);
  const calls = (reply.toolCalls ?? []).map((call) => ({ functionCall: { name: call.name, args: call.arguments } }));
  pieces.forEach((text, index) => {
    const part = { text, ...(index === 0 && reply.reasoning ? { thoughtSignature: GEMINI_REPLY_SIGNATURE } : {}) };
    const isLast = index === pieces.length - 1 && calls.length === 0;
    chunk([part], isLast ? reply : undefined, prompt);
  });
  // A function call arrives whole, in one chunk, with the finish reason on the last chunk.
  calls.forEach((call, index) => chunk([call], index === calls.length - 1 ? reply : undefined, prompt));
  return { status: 200, format: 'sse', body };
};
