import { decodeReasoningDetails } from './openai-chat-reasoning-details.ts';
import type { AssistantContentPart, Message, TextPart, ToolResultPart, UserContentPart } from '../../core/chat-request.ts';
import { invalidRequest } from '../../core/gateway-error.ts';
import type { Warning } from '../../core/warning.ts';
import { isRecord } from '../shared/is-record.ts';
import { mediaSourceFromUrl, parseDataUrl } from './parse-data-url.ts';

const ROLES = 'system, developer, user, assistant or tool';

function textOf(value: unknown, param: string): string {
  if (typeof value !== 'string') throw invalidRequest(`'${param}' must be a string.`, param);
  return value;
}

/** System/developer/tool content: a string or text parts (other part kinds are not allowed there). */
function readTextContent(content: unknown, param: string): TextPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (content === null || content === undefined) return [];
  if (!Array.isArray(content)) {
    throw invalidRequest(`'${param}' must be a string or an array of text parts.`, param);
  }
  return content.map((part, index) => {
    if (!isRecord(part) || part.type !== 'text') {
      throw invalidRequest(`'${param}[${index}]' must be a text part: {"type":"text","text":"..."}.`, `${param}[${index}]`);
    }
    return { type: 'text', text: textOf(part.text, `${param}[${index}].text`) };
  });
}

function readUserPart(part: unknown, param: string, warnings: Warning[]): UserContentPart | undefined {
  if (!isRecord(part)) throw invalidRequest(`'${param}' must be a content part object.`, param);
  switch (part.type) {
    case 'text':
      return { type: 'text', text: textOf(part.text, `${param}.text`) };
    case 'image_url': {
      const image = part.image_url;
      const url = typeof image === 'string' ? image : isRecord(image) ? image.url : undefined;
      if (typeof url !== 'string') {
        throw invalidRequest(`'${param}.image_url.url' must be an http(s) or data: URL.`, `${param}.image_url.url`);
      }
      const detail = isRecord(image) ? image.detail : undefined;
      return {
        type: 'image',
        source: mediaSourceFromUrl(url),
        ...(detail === 'auto' || detail === 'low' || detail === 'high' || detail === 'original' ? { detail } : {}),
      };
    }
    case 'input_audio': {
      const audio = isRecord(part.input_audio) ? part.input_audio : {};
      const data = textOf(audio.data, `${param}.input_audio.data`);
      const format = typeof audio.format === 'string' ? audio.format : 'wav';
      return { type: 'file', source: { kind: 'base64', mediaType: `audio/${format}`, data } };
    }
    case 'file': {
      const file = isRecord(part.file) ? part.file : {};
      const filename = typeof file.filename === 'string' ? { filename: file.filename } : {};
      if (typeof file.file_data === 'string') {
        const inline = parseDataUrl(file.file_data);
        // Some clients send bare base64; PDF is what OpenAI accepts there.
        const source = inline ?? { mediaType: 'application/pdf', data: file.file_data };
        return { type: 'file', source: { kind: 'base64', ...source }, ...filename };
      }
      warnings.push({
        type: 'unsupported',
        feature: 'file_id',
        detail: `${param}: files uploaded to OpenAI cannot be forwarded; the part was dropped`,
      });
      return undefined;
    }
    default:
      throw invalidRequest(`'${param}.type' must be one of text, image_url, input_audio or file; got ${JSON.stringify(part.type)}.`, `${param}.type`);
  }
}

function readUserContent(content: unknown, param: string, warnings: Warning[]): UserContentPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw invalidRequest(`'${param}' must be a string or an array of content parts.`, param);
  const parts: UserContentPart[] = [];
  content.forEach((part, index) => {
    const decoded = readUserPart(part, `${param}[${index}]`, warnings);
    if (decoded) parts.push(decoded);
  });
  return parts;
}

function readAssistant(message: Record<string, unknown>, param: string, names: Map<string, string>): AssistantContentPart[] {
  const parts: AssistantContentPart[] = [];
  // DeepSeek-style hosts and gateways carry thinking as `reasoning_content`; it came before the answer.
  const reasoning = typeof message.reasoning_content === 'string' ? message.reasoning_content : undefined;
  if (reasoning) parts.push({ type: 'reasoning', text: reasoning });
  parts.push(...decodeReasoningDetails(message.reasoning_details));
  const content = message.content;
  if (typeof content === 'string') {
    if (content !== '') parts.push({ type: 'text', text: content });
  } else if (Array.isArray(content)) {
    content.forEach((part, index) => {
      const where = `${param}.content[${index}]`;
      if (!isRecord(part)) throw invalidRequest(`'${where}' must be a content part object.`, where);
      if (part.type === 'text') parts.push({ type: 'text', text: textOf(part.text, `${where}.text`) });
      else if (part.type === 'refusal') parts.push({ type: 'text', text: textOf(part.refusal, `${where}.refusal`) });
      else throw invalidRequest(`'${where}.type' must be text or refusal for assistant messages.`, `${where}.type`);
    });
  } else if (content !== null && content !== undefined) {
    throw invalidRequest(`'${param}.content' must be a string, an array of text parts or null.`, `${param}.content`);
  }
  if (typeof message.refusal === 'string' && message.refusal !== '') parts.push({ type: 'text', text: message.refusal });
  const calls = message.tool_calls;
  if (calls !== undefined && calls !== null) {
    if (!Array.isArray(calls)) throw invalidRequest(`'${param}.tool_calls' must be an array.`, `${param}.tool_calls`);
    calls.forEach((call, index) => {
      const where = `${param}.tool_calls[${index}]`;
      if (!isRecord(call) || typeof call.id !== 'string') {
        throw invalidRequest(`'${where}.id' must be the string id of the tool call.`, `${where}.id`);
      }
      if (isRecord(call.custom)) {
        const name = textOf(call.custom.name, `${where}.custom.name`);
        const input = typeof call.custom.input === 'string' ? call.custom.input : '';
        names.set(call.id, name);
        parts.push({ type: 'tool-call', callId: call.id, name, arguments: JSON.stringify({ input }) });
        return;
      }
      const fn = isRecord(call.function) ? call.function : {};
      const name = textOf(fn.name, `${where}.function.name`);
      const args = typeof fn.arguments === 'string' ? fn.arguments : '';
      names.set(call.id, name);
      parts.push({ type: 'tool-call', callId: call.id, name, arguments: args });
    });
  }
  return parts;
}

function readToolResult(message: Record<string, unknown>, param: string, names: Map<string, string>): ToolResultPart {
  const callId = message.tool_call_id;
  if (typeof callId !== 'string') {
    throw invalidRequest(`'${param}.tool_call_id' must be the id of the assistant tool call this answers.`, `${param}.tool_call_id`);
  }
  const name = names.get(callId);
  return {
    type: 'tool-result',
    callId,
    ...(name === undefined ? {} : { name }),
    content: readTextContent(message.content, `${param}.content`),
  };
}

/**
 * Chat messages → canonical system + messages. System and developer messages are hoisted
 * wherever they appear; consecutive `tool` messages merge into one tool turn; each result
 * gets its tool name back from the assistant call with the same id.
 */
export function decodeOpenAiChatMessages(raw: unknown, warnings: Warning[]): { system: TextPart[]; messages: Message[] } {
  if (!Array.isArray(raw) || raw.length === 0) {
    throw invalidRequest('\'messages\' must be a non-empty array of chat messages, e.g. [{"role":"user","content":"Hi"}].', 'messages');
  }
  const system: TextPart[] = [];
  const messages: Message[] = [];
  const names = new Map<string, string>();
  raw.forEach((message, index) => {
    const param = `messages[${index}]`;
    if (!isRecord(message)) throw invalidRequest(`'${param}' must be a message object with a role.`, param);
    const role = message.role;
    switch (role) {
      case 'system':
      case 'developer':
        system.push(...readTextContent(message.content, `${param}.content`));
        return;
      case 'user':
        messages.push({ role: 'user', content: readUserContent(message.content, `${param}.content`, warnings) });
        return;
      case 'assistant':
        messages.push({ role: 'assistant', content: readAssistant(message, param, names) });
        return;
      case 'tool': {
        const part = readToolResult(message, param, names);
        const last = messages.at(-1);
        if (last?.role === 'tool') last.content.push(part);
        else messages.push({ role: 'tool', content: [part] });
        return;
      }
      default:
        throw invalidRequest(`'${param}.role' must be ${ROLES}; got ${JSON.stringify(role)}.`, `${param}.role`);
    }
  });
  return { system, messages };
}
