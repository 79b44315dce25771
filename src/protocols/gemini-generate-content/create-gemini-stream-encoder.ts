import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import type { Usage } from '../../core/usage.ts';
import type { StreamEncoder, StreamEncoderOptions } from '../protocol-codec.ts';
import { parseToolArguments } from '../shared/parse-tool-arguments.ts';
import { encodeGeminiUsage } from './convert-gemini-usage.ts';
import { encodeGeminiStreamError } from './encode-gemini-error.ts';
import type { GeminiErrorBody, GeminiGenerateContentResponse, GeminiPart } from './gemini-wire.ts';
import { encodeGeminiFinishReason } from './map-gemini-finish-reason.ts';

interface PendingCall {
  callId: string;
  name: string;
  args: string;
}

/**
 * Canonical events → Gemini stream bytes, as `alt=sse` (`data: <chunk>\n\n`, which the genai
 * SDK splits like Google's `\r\n\r\n`) or as the streamed JSON array raw REST clients get
 * without `alt=sse`. Text and thought deltas go out as they come; tool-call arguments are
 * buffered and sent as one whole `functionCall` because Gemini clients expect complete `args`.
 * The last chunk always carries a finish reason: Gemini CLI retries a stream without one.
 */
export function createGeminiStreamEncoder(_context: RuntimeContext, options: StreamEncoderOptions = {}): StreamEncoder {
  const format = options.format ?? 'sse';
  let responseId = '';
  let modelVersion = '';
  let usage: Usage | undefined;
  let wroteAny = false;
  const calls = new Map<string, PendingCall>();

  function frame(payload: GeminiGenerateContentResponse | GeminiErrorBody): string {
    const json = JSON.stringify(payload);
    if (format === 'sse') return `data: ${json}\n\n`;
    const prefix = wroteAny ? ',\r\n' : '[';
    wroteAny = true;
    return prefix + json;
  }

  function chunk(parts: GeminiPart[], finishReason?: string, final?: Usage): string {
    const payload: GeminiGenerateContentResponse = {
      candidates: [{ content: { role: 'model', parts }, ...(finishReason === undefined ? {} : { finishReason }), index: 0 }],
      ...(final === undefined ? {} : { usageMetadata: encodeGeminiUsage(final) }),
      modelVersion,
      responseId,
    };
    return frame(payload);
  }

  /** A text or thought part's signature, replayed on an empty part of its kind; nothing without one. */
  function signedEmptyPart(signature: string | undefined, thought: boolean): string {
    if (signature === undefined) return '';
    return chunk([thought ? { text: '', thought: true, thoughtSignature: signature } : { text: '', thoughtSignature: signature }]);
  }

  /** A buffered tool call goes out whole: Gemini clients expect complete `args`. */
  function endToolCall(id: string, signature: string | undefined): string {
    const call = calls.get(id);
    if (!call) return '';
    calls.delete(id);
    return chunk([
      {
        functionCall: { id: call.callId, name: call.name, args: parseToolArguments(call.args) },
        ...(signature === undefined ? {} : { thoughtSignature: signature }),
      },
    ]);
  }

  return {
    push(event: StreamEvent): string {
      switch (event.type) {
        case 'response-start':
          responseId = event.id;
          modelVersion = event.model;
          return '';
        case 'text-start':
        case 'reasoning-start':
          return '';
        case 'text-delta':
          return event.delta === '' ? '' : chunk([{ text: event.delta }]);
        case 'reasoning-delta':
          return event.delta === '' ? '' : chunk([{ text: event.delta, thought: true }]);
        case 'text-end':
          // Gemini 3 sends a text signature on an empty trailing part; replay it the same way.
          return signedEmptyPart(event.providerMetadata?.gemini?.thoughtSignature, false);
        case 'reasoning-end':
          return signedEmptyPart(event.providerMetadata?.gemini?.thoughtSignature, true);
        case 'tool-call-start':
          calls.set(event.id, { callId: event.callId, name: event.name, args: '' });
          return '';
        case 'tool-call-delta': {
          const call = calls.get(event.id);
          if (call) call.args += event.argumentsDelta;
          return '';
        }
        case 'tool-call-end':
          return endToolCall(event.id, event.providerMetadata?.gemini?.thoughtSignature);
        case 'usage':
          usage = event.usage;
          return '';
        case 'response-end':
          return chunk([], encodeGeminiFinishReason(event.finishReason), event.usage ?? usage);
        case 'error':
          return frame(encodeGeminiStreamError(event.error));
        default: {
          const unreachable: never = event;
          throw new Error(`unknown stream event ${JSON.stringify(unreachable)}`);
        }
      }
    },
    end(): string {
      if (format === 'sse') return '';
      return wroteAny ? ']' : '[]';
    },
  };
}
