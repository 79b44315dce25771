import type { ChatResponse } from '../../core/chat-response.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import { ensureIdPrefix } from '../openai-chat/ensure-id-prefix.ts';
import { buildOpenAiResponsesObject } from './build-openai-responses-object.ts';
import { buildCustomToolCallItem, buildFunctionCallItem, buildMessageItem, buildReasoningItem, type OutputItem } from './build-openai-responses-output-item.ts';
import { toOpenAiResponsesStatus } from './map-openai-responses-status.ts';
import { customToolInput } from './custom-tool-calls.ts';
import type { StreamEncoderOptions } from '../protocol-codec.ts';

/** A canonical reply → the Response object. Item ids keep their OpenAI prefixes (msg_, fc_, rs_). */
export function encodeOpenAiResponsesResponse(response: ChatResponse, context: RuntimeContext, options: StreamEncoderOptions = {}): Record<string, unknown> {
  const customTools = new Set(options.customTools);
  const output: OutputItem[] = [...((options.leadingItems ?? []) as unknown as OutputItem[])];
  for (const part of response.content) {
    const itemId = part.providerMetadata?.openai?.itemId;
    switch (part.type) {
      case 'text': {
        // Adjacent text parts read as one message, as the client would have seen them streamed.
        const last = output.at(-1);
        const lastPart = last?.type === 'message' ? last.content[0] : undefined;
        if (lastPart) lastPart.text += part.text;
        else output.push(buildMessageItem(ensureIdPrefix(itemId ?? '', 'msg_', context), part.text, 'completed'));
        break;
      }
      case 'reasoning':
        output.push(buildReasoningItem(ensureIdPrefix(itemId ?? '', 'rs_', context), part.text, part.providerMetadata?.openai?.encryptedContent));
        break;
      case 'tool-call':
        output.push(
          customTools.has(part.name)
            ? buildCustomToolCallItem(ensureIdPrefix(itemId ?? '', 'ctc_', context), { ...part, input: customToolInput(part.arguments) }, 'completed')
            : buildFunctionCallItem(ensureIdPrefix(itemId ?? '', 'fc_', context), part, 'completed'),
        );
        break;
      default: {
        const unreachable: never = part;
        return unreachable;
      }
    }
  }
  const { status, incomplete_details } = toOpenAiResponsesStatus(response.finishReason.unified);
  return buildOpenAiResponsesObject({
    id: ensureIdPrefix(response.id, 'resp_', context),
    createdAt: Math.floor(response.createdAt / 1000),
    model: response.model,
    status,
    output,
    usage: response.usage,
    incompleteDetails: incomplete_details,
    ...(options.responseState ? { state: options.responseState } : {}),
  });
}
