import type { AssistantContentPart, ReasoningPart, TextPart, ToolCallPart } from '../../core/chat-request.ts';
import type { ChatResponse } from '../../core/chat-response.ts';
import type { FinishReason } from '../../core/finish-reason.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import type { Usage } from '../../core/usage.ts';
import { emptyUsage } from './canonical-usage.ts';

/**
 * Folds a canonical event stream into a complete response: used when a client wants a plain
 * reply but the upstream streamed, and by tests. Feed events with `push`, then call `result`.
 */
export function createResponseAssembler() {
  let id = '';
  let model = '';
  let createdAt = 0;
  let usage: Usage = emptyUsage();
  let finishReason: FinishReason | undefined;
  let failure: GatewayError | undefined;
  const content: AssistantContentPart[] = [];
  const open = new Map<string, AssistantContentPart>();

  return {
    push(event: StreamEvent): void {
      switch (event.type) {
        case 'response-start':
          id = event.id;
          model = event.model;
          createdAt = event.createdAt;
          return;
        case 'text-start': {
          const part: TextPart = { type: 'text', text: '' };
          open.set(event.id, part);
          content.push(part);
          return;
        }
        case 'text-delta': {
          const part = open.get(event.id);
          if (part?.type === 'text') part.text += event.delta;
          return;
        }
        case 'text-end': {
          const part = open.get(event.id);
          if (part?.type === 'text' && event.providerMetadata) part.providerMetadata = event.providerMetadata;
          open.delete(event.id);
          return;
        }
        case 'reasoning-start': {
          const part: ReasoningPart = { type: 'reasoning', text: '' };
          open.set(event.id, part);
          content.push(part);
          return;
        }
        case 'reasoning-delta': {
          const part = open.get(event.id);
          if (part?.type === 'reasoning') part.text += event.delta;
          return;
        }
        case 'reasoning-end': {
          const part = open.get(event.id);
          if (part?.type === 'reasoning') {
            if (event.signature !== undefined) part.signature = event.signature;
            if (event.redactedData !== undefined) part.redactedData = event.redactedData;
            if (event.providerMetadata) part.providerMetadata = event.providerMetadata;
          }
          open.delete(event.id);
          return;
        }
        case 'tool-call-start': {
          const part: ToolCallPart = { type: 'tool-call', callId: event.callId, name: event.name, arguments: '' };
          open.set(event.id, part);
          content.push(part);
          return;
        }
        case 'tool-call-delta': {
          const part = open.get(event.id);
          if (part?.type === 'tool-call') part.arguments += event.argumentsDelta;
          return;
        }
        case 'tool-call-end': {
          const part = open.get(event.id);
          if (part?.type === 'tool-call' && event.providerMetadata) part.providerMetadata = event.providerMetadata;
          open.delete(event.id);
          return;
        }
        case 'usage':
          usage = event.usage;
          return;
        case 'response-end':
          finishReason = event.finishReason;
          if (event.usage) usage = event.usage;
          return;
        case 'error':
          failure = event.error;
          return;
        default: {
          const unreachable: never = event;
          throw new Error(`unknown stream event ${JSON.stringify(unreachable)}`);
        }
      }
    },
    /** The assembled response; throws the stream's error if it carried one. */
    result(): ChatResponse {
      if (failure) throw failure;
      if (!finishReason) {
        throw new GatewayError('upstream_invalid_response', 'The upstream stream ended without a finish reason.');
      }
      return { id, model, createdAt, content, finishReason, usage };
    },
  };
}
