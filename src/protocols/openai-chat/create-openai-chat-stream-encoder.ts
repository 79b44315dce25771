import { encodeReasoningDetail } from './openai-chat-reasoning-details.ts';
import { customToolInput } from '../openai-responses/custom-tool-calls.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import { emptyUsage, type Usage } from '../../core/usage.ts';
import { formatSseJson } from '../../sse/format-sse-message.ts';
import type { StreamEncoder, StreamEncoderOptions } from '../protocol-codec.ts';
import { toOpenAiUsage } from './convert-openai-usage.ts';
import { openAiErrorType } from './encode-openai-error.ts';
import { ensureIdPrefix } from './ensure-id-prefix.ts';
import { toOpenAiFinishReason, type OpenAiFinishReason } from './map-openai-finish-reason.ts';

type Delta = Record<string, unknown>;

/**
 * Canonical events → Chat Completions SSE, shaped for the openai SDK's accumulator: the
 * first delta carries the role, every chunk repeats id/created/model, tool calls keep their
 * index, and the choice always ends with a finish reason before the optional usage chunk.
 */
export function createOpenAiChatStreamEncoder(context: RuntimeContext, options: StreamEncoderOptions = {}): StreamEncoder {
  const includeUsage = options.includeUsage === true;
  let id = '';
  let created = 0;
  let model = '';
  let started = false;
  let failed = false;
  let usage: Usage | undefined;
  const toolIndexes = new Map<string, number>();
  const customTools = new Set(options.customTools);
  /** Custom tool calls being streamed: their JSON arguments, unwrapped to the raw input at the end. */
  const customArguments = new Map<string, string>();

  function chunk(delta: Delta, finishReason: OpenAiFinishReason | null = null): string {
    const payload: Record<string, unknown> = {
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    };
    if (includeUsage) payload.usage = null;
    return formatSseJson(payload);
  }

  let reasoningDetails = 0;
  /** A stream whose first event is not response-start still needs an identity. */
  function start(): string {
    if (started) return '';
    started = true;
    if (id === '') id = context.generateId('chatcmpl-');
    if (created === 0) created = Math.floor(context.now() / 1000);
    return chunk({ role: 'assistant', content: '' });
  }

  return {
    push(event: StreamEvent): string {
      if (failed) return '';
      switch (event.type) {
        case 'response-start':
          if (started) return '';
          id = ensureIdPrefix(event.id, 'chatcmpl-', context);
          created = Math.floor(event.createdAt / 1000);
          model = event.model;
          return start();
        case 'text-start':
        case 'text-end':
        case 'reasoning-start':
          return start();
        case 'tool-call-end': {
          const buffered = customArguments.get(event.id);
          const index = toolIndexes.get(event.id);
          if (buffered === undefined || index === undefined) return start();
          customArguments.delete(event.id);
          const input = customToolInput(buffered);
          return input === '' ? start() : start() + chunk({ tool_calls: [{ index, custom: { input } }] });
        }
        case 'reasoning-end': {
          const detail = encodeReasoningDetail(
            { type: 'reasoning', text: '', ...(event.signature === undefined ? {} : { signature: event.signature }), ...(event.providerMetadata ? { providerMetadata: event.providerMetadata } : {}) },
            reasoningDetails++,
          );
          return detail ? start() + chunk({ reasoning_details: [detail] }) : start();
        }
        case 'text-delta':
          return event.delta === '' ? start() : start() + chunk({ content: event.delta });
        case 'reasoning-delta':
          return event.delta === '' ? start() : start() + chunk({ reasoning_content: event.delta });
        case 'tool-call-start': {
          const index = toolIndexes.size;
          toolIndexes.set(event.id, index);
          if (customTools.has(event.name)) {
            // The upstream streams `{"input": …}` JSON; the raw input goes out whole at the call's end.
            customArguments.set(event.id, '');
            return start() + chunk({ tool_calls: [{ index, id: event.callId, type: 'custom', custom: { name: event.name, input: '' } }] });
          }
          return (
            start() +
            chunk({
              tool_calls: [
                { index, id: event.callId, type: 'function', function: { name: event.name, arguments: '' } },
              ],
            })
          );
        }
        case 'tool-call-delta': {
          const index = toolIndexes.get(event.id);
          if (index === undefined || event.argumentsDelta === '') return start();
          const buffered = customArguments.get(event.id);
          if (buffered !== undefined) {
            customArguments.set(event.id, buffered + event.argumentsDelta);
            return start();
          }
          return start() + chunk({ tool_calls: [{ index, function: { arguments: event.argumentsDelta } }] });
        }
        case 'usage':
          usage = event.usage;
          return start();
        case 'response-end': {
          const finalUsage = event.usage ?? usage ?? emptyUsage();
          let out = start() + chunk({}, toOpenAiFinishReason(event.finishReason.unified));
          if (includeUsage) {
            out += formatSseJson({
              id,
              object: 'chat.completion.chunk',
              created,
              model,
              choices: [],
              usage: options.priceUsage ? { ...toOpenAiUsage(finalUsage), cost: options.priceUsage(finalUsage, undefined) } : toOpenAiUsage(finalUsage),
            });
          }
          return out;
        }
        case 'error':
          // The HTTP status is already 200, so the error travels in the stream and ends it.
          failed = true;
          return formatSseJson({
            error: {
              message: event.error.message,
              type: openAiErrorType(event.error.status),
              code: event.error.code,
              param: null,
            },
          });
        default: {
          const unreachable: never = event;
          return unreachable;
        }
      }
    },
    end(): string {
      return failed ? '' : 'data: [DONE]\n\n';
    },
  };
}
