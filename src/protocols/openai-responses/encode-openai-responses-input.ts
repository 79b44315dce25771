import type { ImagePart, Message, TextPart, UserContentPart } from '../../core/chat-request.ts';
import type { Warning } from '../../core/warning.ts';
import { mediaSourceToUrl } from '../openai-chat/parse-data-url.ts';

type InputPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: string }
  | { type: 'input_file'; file_data?: string; file_url?: string; filename?: string };

function imagePart(part: ImagePart): InputPart {
  return { type: 'input_image', image_url: mediaSourceToUrl(part.source), detail: part.detail ?? 'auto' };
}

function userPart(part: UserContentPart): InputPart {
  switch (part.type) {
    case 'text':
      return { type: 'input_text', text: part.text };
    case 'image':
      return imagePart(part);
    case 'file': {
      const file: InputPart =
        part.source.kind === 'url' ? { type: 'input_file', file_url: part.source.url } : { type: 'input_file', file_data: mediaSourceToUrl(part.source) };
      if (part.filename !== undefined) file.filename = part.filename;
      return file;
    }
    default: {
      const unreachable: never = part;
      return unreachable;
    }
  }
}

function toolOutput(content: Array<TextPart | ImagePart>): string | InputPart[] {
  if (content.every((part) => part.type === 'text')) return content.map((part) => (part as TextPart).text).join('');
  return content.map((part) => (part.type === 'text' ? { type: 'input_text' as const, text: part.text } : imagePart(part)));
}

/**
 * Canonical messages → Responses input items for a stateless call (`store:false`): no item
 * ids, since OpenAI looks those up in storage, and reasoning only when it carries OpenAI's own
 * encrypted content, the one form OpenAI can take back.
 */
export function encodeOpenAiResponsesInput(messages: Message[], warnings: Warning[]): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  let droppedReasoning = false;
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        items.push({ type: 'message', role: 'user', content: message.content.map(userPart) });
        break;
      case 'assistant':
        for (const part of message.content) {
          if (part.type === 'text') {
            items.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: part.text, annotations: [] }] });
          } else if (part.type === 'tool-call') {
            items.push({ type: 'function_call', call_id: part.callId, name: part.name, arguments: part.arguments });
          } else {
            const encrypted = part.providerMetadata?.openai?.encryptedContent;
            if (encrypted === undefined) {
              droppedReasoning = true;
              continue;
            }
            items.push({
              type: 'reasoning',
              summary: part.text === '' ? [] : [{ type: 'summary_text', text: part.text }],
              encrypted_content: encrypted,
            });
          }
        }
        break;
      case 'tool':
        for (const result of message.content) {
          if (result.isError) {
            warnings.push({
              type: 'unsupported',
              feature: 'tool_result.is_error',
              detail: `the error flag of tool result ${result.callId} has no Responses equivalent`,
            });
          }
          items.push({ type: 'function_call_output', call_id: result.callId, output: toolOutput(result.content) });
        }
        break;
      default: {
        const unreachable: never = message;
        return unreachable;
      }
    }
  }
  if (droppedReasoning) {
    warnings.push({
      type: 'unsupported',
      feature: 'reasoning_history',
      detail: 'reasoning from another provider was dropped; OpenAI accepts only its own encrypted reasoning',
    });
  }
  return items;
}
