import type { ImagePart, Message, TextPart, UserContentPart } from '../../core/chat-request.ts';
import type { Warning } from '../../core/warning.ts';
import { mediaSourceToUrl } from './parse-data-url.ts';

export type OpenAiChatContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: string } }
  | { type: 'file'; file: { file_data: string; filename?: string } };

export interface OpenAiChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type OpenAiChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | OpenAiChatContentPart[] }
  | { role: 'assistant'; content: string | Array<{ type: 'text'; text: string }> | null; tool_calls?: OpenAiChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string | Array<{ type: 'text'; text: string }> };

const AUDIO_FORMATS: Record<string, string> = { 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/mp3': 'mp3', 'audio/mpeg': 'mp3' };

function imagePart(part: ImagePart): OpenAiChatContentPart {
  const url = mediaSourceToUrl(part.source);
  return { type: 'image_url', image_url: part.detail === undefined ? { url } : { url, detail: part.detail } };
}

function userPart(part: UserContentPart, warnings: Warning[]): OpenAiChatContentPart | undefined {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return imagePart(part);
    case 'file': {
      const source = part.source;
      if (source.kind === 'url') {
        warnings.push({ type: 'unsupported', feature: 'file_url', detail: 'OpenAI chat accepts files only inline; a linked file was dropped' });
        return undefined;
      }
      const audioFormat = AUDIO_FORMATS[source.mediaType];
      if (audioFormat) return { type: 'input_audio', input_audio: { data: source.data, format: audioFormat } };
      const file: { file_data: string; filename?: string } = { file_data: mediaSourceToUrl(source) };
      if (part.filename !== undefined) file.filename = part.filename;
      return { type: 'file', file };
    }
    default: {
      const unreachable: never = part;
      return unreachable;
    }
  }
}

/** One text part travels as a plain string, which every OpenAI-compatible host accepts. */
function textContent(parts: TextPart[]): string | Array<{ type: 'text'; text: string }> {
  if (parts.length === 1 && parts[0]) return parts[0].text;
  if (parts.length === 0) return '';
  return parts.map((part) => ({ type: 'text' as const, text: part.text }));
}

/** Canonical system + messages → Chat Completions messages. */
export function encodeOpenAiChatMessages(system: TextPart[], messages: Message[], warnings: Warning[]): OpenAiChatMessage[] {
  const out: OpenAiChatMessage[] = [];
  if (system.length > 0) out.push({ role: 'system', content: system.map((part) => part.text).join('\n\n') });
  let droppedReasoning = false;
  for (const message of messages) {
    switch (message.role) {
      case 'user': {
        const parts = message.content.flatMap((part) => userPart(part, warnings) ?? []);
        const only = parts[0];
        out.push({ role: 'user', content: parts.length === 1 && only?.type === 'text' ? only.text : parts });
        break;
      }
      case 'assistant': {
        const texts: TextPart[] = [];
        const calls: OpenAiChatToolCall[] = [];
        for (const part of message.content) {
          if (part.type === 'text') texts.push(part);
          else if (part.type === 'tool-call') {
            calls.push({ id: part.callId, type: 'function', function: { name: part.name, arguments: part.arguments } });
          } else droppedReasoning = true;
        }
        const content = texts.length === 0 ? null : textContent(texts);
        out.push(calls.length === 0 ? { role: 'assistant', content } : { role: 'assistant', content, tool_calls: calls });
        break;
      }
      case 'tool': {
        // OpenAI tool messages are text only: images follow in a user message of their own.
        const images: ImagePart[] = [];
        for (const result of message.content) {
          const texts: TextPart[] = [];
          for (const inner of result.content) {
            if (inner.type === 'text') texts.push(inner);
            else images.push(inner);
          }
          if (result.isError) {
            warnings.push({
              type: 'unsupported',
              feature: 'tool_result.is_error',
              detail: `the error flag of tool result ${result.callId} has no OpenAI equivalent`,
            });
          }
          out.push({ role: 'tool', tool_call_id: result.callId, content: textContent(texts) });
        }
        if (images.length > 0) {
          warnings.push({ type: 'compatibility', feature: 'tool_result.image', detail: 'images in tool results were moved to a following user message' });
          out.push({ role: 'user', content: images.map(imagePart) });
        }
        break;
      }
      default: {
        const unreachable: never = message;
        return unreachable;
      }
    }
  }
  if (droppedReasoning) {
    warnings.push({ type: 'unsupported', feature: 'reasoning_history', detail: 'earlier reasoning was dropped; OpenAI chat hosts cannot take it back' });
  }
  return out;
}
