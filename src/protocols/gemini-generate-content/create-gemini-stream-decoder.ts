import type { FinishReason } from '../../core/finish-reason.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import type { Usage } from '../../core/usage.ts';
import { keepUpstreamUsage } from '../shared/canonical-usage.ts';
import type { SseMessage } from '../sse/sse-message.ts';
import type { StreamDecoder } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';
import { countGeminiUsage } from './convert-gemini-usage.ts';
import { gatewayErrorFromGemini } from './decode-gemini-error.ts';
import { geminiSignatureMetadata } from './decode-gemini-model-part.ts';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.ts';
import { normalizeGeminiKeys } from './normalize-gemini-keys.ts';
import { readGeminiPart } from './read-gemini-part.ts';

interface OpenBlock {
  kind: 'text' | 'reasoning';
  id: string;
  signature?: string;
}

/**
 * Gemini `alt=sse` chunks → canonical events. Each chunk is a whole GenerateContentResponse
 * holding only new parts: text parts are deltas, a function call arrives whole. Gemini has no
 * block boundaries, so a text or thought block stays open across chunks until a different
 * kind of part arrives or the stream ends. `usageMetadata` is cumulative; the finish reason
 * is remembered and reported at the end, when we know whether any function was called.
 */
export function createGeminiStreamDecoder(context: RuntimeContext): StreamDecoder {
  let started = false;
  let done = false;
  let blockCount = 0;
  let open: OpenBlock | undefined;
  let sawFunctionCall = false;
  let finishRaw: string | undefined;
  let blockReason: string | undefined;
  let usage: Usage | undefined;
  let usageKey = '';

  const nextBlockId = (): string => String(blockCount++);

  function close(events: StreamEvent[]): void {
    if (open === undefined) return;
    const metadata = geminiSignatureMetadata(open.signature);
    events.push(open.kind === 'text' ? { type: 'text-end', id: open.id, ...metadata } : { type: 'reasoning-end', id: open.id, ...metadata });
    open = undefined;
  }

  function fail(error: GatewayError, events: StreamEvent[] = []): StreamEvent[] {
    done = true;
    events.push({ type: 'error', error });
    return events;
  }

  function readChunk(chunk: Record<string, unknown>, events: StreamEvent[]): void {
    if (!started) {
      started = true;
      events.push({
        type: 'response-start',
        id: typeof chunk.responseId === 'string' && chunk.responseId !== '' ? chunk.responseId : context.generateId('resp_'),
        model: typeof chunk.modelVersion === 'string' ? chunk.modelVersion : '',
        createdAt: context.now(),
      });
    }
    const candidate = Array.isArray(chunk.candidates) && isRecord(chunk.candidates[0]) ? chunk.candidates[0] : undefined;
    const parts = candidate && isRecord(candidate.content) && Array.isArray(candidate.content.parts) ? candidate.content.parts : [];
    for (const part of parts) {
      const view = readGeminiPart(part);
      if (view.kind === 'text') {
        const kind = view.thought ? 'reasoning' : 'text';
        if (open?.kind !== kind) {
          close(events);
          open = { kind, id: nextBlockId() };
          events.push({ type: kind === 'text' ? 'text-start' : 'reasoning-start', id: open.id });
        }
        if (view.text !== '') {
          events.push({ type: kind === 'text' ? 'text-delta' : 'reasoning-delta', id: open.id, delta: view.text });
        }
        if (view.thoughtSignature !== undefined) open.signature = view.thoughtSignature;
      } else if (view.kind === 'function-call') {
        close(events);
        sawFunctionCall = true;
        const id = nextBlockId();
        events.push(
          { type: 'tool-call-start', id, callId: view.id ?? context.generateId('call_'), name: view.name },
          { type: 'tool-call-delta', id, argumentsDelta: JSON.stringify(view.args) },
          { type: 'tool-call-end', id, ...geminiSignatureMetadata(view.thoughtSignature) },
        );
      }
    }
    if (candidate && typeof candidate.finishReason === 'string') finishRaw = candidate.finishReason;
    if (isRecord(chunk.promptFeedback) && typeof chunk.promptFeedback.blockReason === 'string') {
      blockReason = chunk.promptFeedback.blockReason;
    }
    const chunkUsage = countGeminiUsage(chunk.usageMetadata);
    if (chunkUsage !== undefined) {
      const key = JSON.stringify(chunkUsage);
      if (key !== usageKey) {
        usageKey = key;
        usage = keepUpstreamUsage(chunkUsage, chunk.usageMetadata);
        events.push({ type: 'usage', usage: chunkUsage });
      }
    }
  }

  return {
    push(message: SseMessage): StreamEvent[] {
      if (done) return [];
      const data = message.data.trim();
      if (data === '' || data === '[DONE]') return [];
      let parsed: unknown;
      try {
        parsed = normalizeGeminiKeys(JSON.parse(data));
      } catch {
        return fail(new GatewayError('upstream_invalid_response', 'The Gemini upstream sent a stream chunk that is not valid JSON.'));
      }
      const events: StreamEvent[] = [];
      for (const chunk of Array.isArray(parsed) ? parsed : [parsed]) {
        if (!isRecord(chunk)) {
          return fail(new GatewayError('upstream_invalid_response', 'The Gemini upstream sent a stream chunk that is not a JSON object.'), events);
        }
        if (chunk.error !== undefined) return fail(gatewayErrorFromGemini(chunk), events);
        readChunk(chunk, events);
      }
      return events;
    },
    end(): StreamEvent[] {
      if (done) return [];
      done = true;
      const events: StreamEvent[] = [];
      close(events);
      let finishReason: FinishReason | undefined;
      if (finishRaw !== undefined) finishReason = mapGeminiFinishReason(finishRaw, sawFunctionCall);
      else if (blockReason !== undefined) finishReason = { unified: 'content-filter', raw: blockReason };
      if (finishReason === undefined) {
        events.push({
          type: 'error',
          error: new GatewayError('upstream_invalid_response', 'The Gemini upstream stream ended without a finish reason.'),
        });
        return events;
      }
      events.push(usage === undefined ? { type: 'response-end', finishReason } : { type: 'response-end', finishReason, usage });
      return events;
    },
  };
}
