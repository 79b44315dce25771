import type { Message, UserContentPart } from '../../core/chat-request.ts';
import { invalidRequest } from '../../core/gateway-error.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { Warning } from '../../core/warning.ts';
import { isRecord } from '../shared/is-record.ts';
import { decodeGeminiModelPart } from './decode-gemini-model-part.ts';
import { decodeGeminiToolResult } from './decode-gemini-tool-result.ts';
import { readGeminiPart, type GeminiPartView } from './read-gemini-part.ts';

type Role = 'user' | 'model' | 'function';

/**
 * Gemini `contents` → canonical messages. Parts are sorted by what they are rather than by the
 * content's role: function calls always become assistant tool calls and function responses
 * always become tool results (Gemini carries them in `user` or legacy `function` contents), so
 * one Gemini content may become several canonical messages, in order.
 *
 * Gemini call ids are optional (AI Studio usually omits them). A call without an id gets a
 * synthetic one, and a response without an id is matched to the earliest unanswered call
 * with the same name, which is how Gemini itself pairs them.
 */
export function decodeGeminiContents(contents: unknown, runtime: RuntimeContext, warnings: Warning[]): Message[] {
  if (contents === undefined || contents === null) {
    throw invalidRequest('The request body needs `contents`: an array of {role, parts} turns.', 'contents');
  }
  if (!Array.isArray(contents)) {
    throw invalidRequest('`contents` must be an array of {role, parts} turns.', 'contents');
  }
  const messages: Message[] = [];
  const unanswered = new Map<string, string[]>();
  const append = (message: Message): void => {
    const last = messages.at(-1);
    if (last !== undefined && last.role === message.role) {
      // Consecutive same-role turns say the same as one turn, and stay one after re-encoding.
      (last.content as unknown[]).push(...message.content);
    } else {
      messages.push(message);
    }
  };

  contents.forEach((content, i) => {
    const path = `contents[${i}]`;
    if (!isRecord(content)) throw invalidRequest(`\`${path}\` must be an object with \`role\` and \`parts\`.`, path);
    const role = readRole(content.role, `${path}.role`);
    if (!Array.isArray(content.parts)) {
      throw invalidRequest(`\`${path}.parts\` must be an array of parts.`, `${path}.parts`);
    }
    content.parts.forEach((part, j) => decodePart(readGeminiPart(part), role, `${path}.parts[${j}]`));
  });
  return messages;

  function decodePart(view: GeminiPartView, role: Role, partPath: string): void {
    switch (view.kind) {
      case 'invalid': {
        const field = view.field === '' ? partPath : `${partPath}.${view.field}`;
        throw invalidRequest(`\`${field}\` ${view.reason}.`, field);
      }
      case 'unknown':
        throw invalidRequest(`\`${partPath}\` has no known field; a part needs one of text, inlineData, fileData, functionCall or functionResponse.`, partPath);
      case 'unsupported':
        warnings.push({ type: 'unsupported', feature: `parts.${view.field}` });
        return;
      case 'function-call': {
        const callId = view.id ?? runtime.generateId('call_');
        const queue = unanswered.get(view.name) ?? [];
        queue.push(callId);
        unanswered.set(view.name, queue);
        const decoded = decodeGeminiModelPart(view, () => callId);
        if (decoded) append({ role: 'assistant', content: [decoded] });
        return;
      }
      case 'function-response': {
        const queue = unanswered.get(view.name) ?? [];
        let callId: string;
        if (view.id !== undefined) {
          callId = view.id;
          const index = queue.indexOf(view.id);
          if (index >= 0) queue.splice(index, 1);
        } else {
          callId = queue.shift() ?? runtime.generateId('call_');
        }
        append({ role: 'tool', content: [decodeGeminiToolResult(view, callId, warnings)] });
        return;
      }
      case 'text':
        if (role === 'model') {
          const decoded = decodeGeminiModelPart(view, () => '');
          if (decoded) append({ role: 'assistant', content: [decoded] });
        } else {
          append({ role: 'user', content: [{ type: 'text', text: view.text }] });
        }
        return;
      case 'inline-data':
      case 'file-data': {
        if (role === 'model') {
          warnings.push({ type: 'unsupported', feature: 'model media parts', detail: 'media in a model turn was dropped' });
          return;
        }
        append({ role: 'user', content: [decodeUserMedia(view)] });
        return;
      }
      default: {
        const unreachable: never = view;
        return unreachable;
      }
    }
  }
}

function readRole(role: unknown, path: string): Role {
  // A single-turn request may omit the role; Gemini then treats the content as the user's.
  if (role === undefined || role === null || role === '') return 'user';
  if (role === 'user' || role === 'model' || role === 'function') return role;
  throw invalidRequest(`\`${path}\` must be "user" or "model", got ${JSON.stringify(role)}.`, path);
}

function decodeUserMedia(view: Extract<GeminiPartView, { kind: 'inline-data' | 'file-data' }>): UserContentPart {
  if (view.kind === 'inline-data') {
    const source = { kind: 'base64', mediaType: view.mimeType, data: view.data } as const;
    return view.mimeType.startsWith('image/') ? { type: 'image', source } : { type: 'file', source };
  }
  const source = { kind: 'url', url: view.fileUri, ...(view.mimeType === undefined ? {} : { mediaType: view.mimeType }) } as const;
  return view.mimeType?.startsWith('image/') ? { type: 'image', source } : { type: 'file', source };
}
