import type { AssistantContentPart, ImagePart, Message, TextPart, ToolResultPart, UserContentPart } from '../../core/chat-request.ts';
import { invalidRequest } from '../../core/gateway-error.ts';
import type { Warning } from '../../core/warning.ts';
import { mediaSourceFromUrl, parseDataUrl } from '../openai-chat/parse-data-url.ts';
import { isRecord } from '../shared/is-record.ts';

type Part = TextPart | ImagePart | UserContentPart;

function detailOf(value: unknown): Pick<ImagePart, 'detail'> {
  return value === 'auto' || value === 'low' || value === 'high' || value === 'original' ? { detail: value } : {};
}

/** One content part of a message or tool output; `undefined` when it was dropped with a warning. */
function readPart(part: unknown, param: string, warnings: Warning[]): Part | undefined {
  if (!isRecord(part)) throw invalidRequest(`'${param}' must be a content part object.`, param);
  switch (part.type) {
    case 'input_text':
    case 'output_text':
    case 'text':
      if (typeof part.text !== 'string') throw invalidRequest(`'${param}.text' must be a string.`, `${param}.text`);
      return { type: 'text', text: part.text };
    case 'refusal':
      return { type: 'text', text: typeof part.refusal === 'string' ? part.refusal : '' };
    case 'input_image':
      if (typeof part.image_url === 'string') {
        return { type: 'image', source: mediaSourceFromUrl(part.image_url), ...detailOf(part.detail) };
      }
      warnings.push({ type: 'unsupported', feature: 'input_image.file_id', detail: `${param}: uploaded files cannot be forwarded; dropped` });
      return undefined;
    case 'input_file': {
      const filename = typeof part.filename === 'string' ? { filename: part.filename } : {};
      if (typeof part.file_data === 'string') {
        const inline = parseDataUrl(part.file_data) ?? { mediaType: 'application/pdf', data: part.file_data };
        return { type: 'file', source: { kind: 'base64', ...inline }, ...filename };
      }
      if (typeof part.file_url === 'string') return { type: 'file', source: { kind: 'url', url: part.file_url }, ...filename };
      warnings.push({ type: 'unsupported', feature: 'input_file.file_id', detail: `${param}: uploaded files cannot be forwarded; dropped` });
      return undefined;
    }
    default:
      throw invalidRequest(`'${param}.type' must be input_text, input_image, input_file or output_text; got ${JSON.stringify(part.type)}.`, `${param}.type`);
  }
}

function readParts(content: unknown, param: string, warnings: Warning[]): Part[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw invalidRequest(`'${param}' must be a string or an array of content parts.`, param);
  return content.flatMap((part, index) => readPart(part, `${param}[${index}]`, warnings) ?? []);
}

function readString(value: unknown, param: string): string {
  if (typeof value !== 'string') throw invalidRequest(`'${param}' must be a string.`, param);
  return value;
}

/**
 * Responses input items → canonical system + messages. Adjacent assistant-side items
 * (message, reasoning, function calls) form one assistant turn and adjacent outputs one
 * tool turn, which is how every other protocol groups them.
 */
export function decodeOpenAiResponsesInput(input: unknown, warnings: Warning[]): { system: TextPart[]; messages: Message[] } {
  const system: TextPart[] = [];
  const messages: Message[] = [];
  if (typeof input === 'string') return { system, messages: [{ role: 'user', content: [{ type: 'text', text: input }] }] };
  if (!Array.isArray(input) || input.length === 0) {
    throw invalidRequest("'input' must be a string or a non-empty array of input items.", 'input');
  }
  const names = new Map<string, string>();
  const assistant = (): AssistantContentPart[] => {
    const last = messages.at(-1);
    if (last?.role === 'assistant') return last.content;
    const created: Message = { role: 'assistant', content: [] };
    messages.push(created);
    return created.content;
  };
  const toolResult = (part: ToolResultPart): void => {
    const last = messages.at(-1);
    if (last?.role === 'tool') last.content.push(part);
    else messages.push({ role: 'tool', content: [part] });
  };
  input.forEach((item, index) => {
    const param = `input[${index}]`;
    if (!isRecord(item)) throw invalidRequest(`'${param}' must be an input item object.`, param);
    // Easy input messages omit `type`.
    const type = item.type ?? (item.role === undefined ? undefined : 'message');
    switch (type) {
      case 'message': {
        const parts = readParts(item.content, `${param}.content`, warnings);
        switch (item.role) {
          case 'system':
          case 'developer':
            for (const part of parts) if (part.type === 'text') system.push(part);
            return;
          case 'user':
            messages.push({ role: 'user', content: parts });
            return;
          case 'assistant':
            for (const part of parts) if (part.type === 'text') assistant().push(part);
            return;
          default:
            throw invalidRequest(`'${param}.role' must be user, assistant, system or developer; got ${JSON.stringify(item.role)}.`, `${param}.role`);
        }
      }
      case 'function_call':
      case 'custom_tool_call': {
        const callId = readString(item.call_id, `${param}.call_id`);
        const name = readString(item.name, `${param}.name`);
        names.set(callId, name);
        const args =
          type === 'custom_tool_call'
            ? JSON.stringify({ input: typeof item.input === 'string' ? item.input : '' })
            : typeof item.arguments === 'string'
              ? item.arguments
              : '';
        const itemId = typeof item.id === 'string' ? { providerMetadata: { openai: { itemId: item.id } } } : {};
        assistant().push({ type: 'tool-call', callId, name, arguments: args, ...itemId });
        return;
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const callId = readString(item.call_id, `${param}.call_id`);
        const content = readParts(item.output, `${param}.output`, warnings).filter(
          (part): part is TextPart | ImagePart => part.type === 'text' || part.type === 'image',
        );
        const name = names.get(callId);
        toolResult({ type: 'tool-result', callId, ...(name === undefined ? {} : { name }), content });
        return;
      }
      case 'reasoning': {
        const summary = Array.isArray(item.summary) ? item.summary : [];
        const text = summary.flatMap((entry) => (isRecord(entry) && typeof entry.text === 'string' ? [entry.text] : [])).join('\n\n');
        const openai: { itemId?: string; encryptedContent?: string } = {};
        if (typeof item.id === 'string') openai.itemId = item.id;
        if (typeof item.encrypted_content === 'string') openai.encryptedContent = item.encrypted_content;
        assistant().push({ type: 'reasoning', text, providerMetadata: { openai } });
        return;
      }
      default:
        // Hosted-tool calls, item references and item kinds newer than this code cannot be
        // replayed to another upstream; dropping them keeps the conversation usable.
        if (typeof type === 'string') {
          warnings.push({ type: 'unsupported', feature: `input.${type}`, detail: `${param} cannot be forwarded; dropped` });
          return;
        }
        throw invalidRequest(`'${param}' needs a "type" (message, function_call, function_call_output, reasoning) or a "role".`, `${param}.type`);
    }
  });
  return { system, messages };
}
