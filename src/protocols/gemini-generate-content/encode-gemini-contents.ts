import type { AssistantContentPart, Message, ToolResultPart, UserContentPart } from '../../core/chat-request.ts';
import type { Warning } from '../../core/warning.ts';
import { isRecord } from '../shared/is-record.ts';
import { parseToolArguments } from '../shared/parse-tool-arguments.ts';
import { encodeGeminiMedia } from './encode-gemini-media.ts';
import type { GeminiContent, GeminiPart } from './gemini-wire.ts';

/**
 * The documented placeholder Gemini 3 accepts in place of a real thought signature. Gemini 3
 * rejects history whose first function call in a model turn carries no signature, which is
 * always the case for history produced by another provider.
 */
export const SKIP_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

/**
 * Canonical messages → Gemini `contents`. Gemini wants user/model alternation and no empty
 * parts, so consecutive same-role turns merge (tool results ride in a user turn) and empty
 * text and empty turns are dropped.
 */
export function encodeGeminiContents(messages: Message[], warnings: Warning[]): GeminiContent[] {
  const callNames = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) if (part.type === 'tool-call') callNames.set(part.callId, part.name);
  }
  const contents: GeminiContent[] = [];
  const add = (role: GeminiContent['role'], parts: GeminiPart[]): void => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        add('user', message.content.flatMap(encodeUserPart));
        break;
      case 'assistant':
        add(
          'model',
          message.content.flatMap((part) => encodeAssistantPart(part, warnings)),
        );
        break;
      case 'tool':
        add(
          'user',
          message.content.map((part) => encodeToolResult(part, callNames, warnings)),
        );
        break;
      default: {
        const unreachable: never = message;
        throw new Error(`unknown message ${JSON.stringify(unreachable)}`);
      }
    }
  }
  // The current turn (after the last user text) is the part Gemini 3 validates.
  let turnStart = -1;
  contents.forEach((content, index) => {
    if (content.role === 'user' && content.parts.some((part) => part.text !== undefined)) turnStart = index;
  });
  let skipped = 0;
  contents.forEach((content, index) => {
    if (content.role !== 'model') return;
    const firstCall = content.parts.find((part) => part.functionCall !== undefined);
    if (firstCall && firstCall.thoughtSignature === undefined) {
      firstCall.thoughtSignature = SKIP_THOUGHT_SIGNATURE;
      if (index > turnStart) skipped += 1;
    }
  });
  if (skipped > 0) {
    warnings.push({
      type: 'compatibility',
      feature: 'thought_signature',
      detail: `${skipped} function call(s) of the current turn had no Gemini thought signature to give back; sent Gemini's documented skip_thought_signature_validator instead`,
    });
  }
  return contents;
}

function encodeUserPart(part: UserContentPart): GeminiPart[] {
  switch (part.type) {
    case 'text':
      return part.text === '' ? [] : [{ text: part.text }];
    case 'image':
    case 'file':
      return [encodeGeminiMedia(part.source)];
    default: {
      const unreachable: never = part;
      throw new Error(`unknown part ${JSON.stringify(unreachable)}`);
    }
  }
}

function encodeAssistantPart(part: AssistantContentPart, warnings: Warning[]): GeminiPart[] {
  const signature = part.providerMetadata?.gemini?.thoughtSignature;
  switch (part.type) {
    case 'text':
      if (part.text === '' && signature === undefined) return [];
      return [{ text: part.text, ...(signature === undefined ? {} : { thoughtSignature: signature }) }];
    case 'reasoning':
      // Gemini accepts thoughts in history only with its own signature; anyone else's
      // reasoning (or an unsigned thought) would be rejected or mistaken for plain text.
      if (signature === undefined) {
        warnings.push({ type: 'unsupported', feature: 'reasoning_history', detail: 'reasoning without a Gemini thought signature was dropped' });
        return [];
      }
      return [{ text: part.text, thought: true, thoughtSignature: signature }];
    case 'tool-call':
      return [
        {
          functionCall: { id: part.callId, name: part.name, args: parseToolArguments(part.arguments) },
          ...(signature === undefined ? {} : { thoughtSignature: signature }),
        },
      ];
    default: {
      const unreachable: never = part;
      throw new Error(`unknown part ${JSON.stringify(unreachable)}`);
    }
  }
}

const WRAPPER_KEYS = new Set(['output', 'result', 'error']);

/**
 * Gemini needs the tool's name and an object `response`. Text that is itself a JSON object
 * goes as that object (the model reads structure better than escaped JSON), except when it
 * looks like one of the `{output}` wrappers, which a reader would unwrap and so lose.
 */
function encodeToolResult(part: ToolResultPart, callNames: Map<string, string>, warnings: Warning[]): GeminiPart {
  let name = part.name ?? callNames.get(part.callId);
  if (name === undefined) {
    warnings.push({ type: 'compatibility', feature: 'functionResponse.name', detail: 'no matching call; the call id stands in for the name' });
    name = part.callId;
  }
  const text = part.content.map((inner) => (inner.type === 'text' ? inner.text : '')).join('');
  const media = part.content.flatMap((inner) => (inner.type === 'image' ? [encodeGeminiMedia(inner.source)] : []));
  return {
    functionResponse: {
      id: part.callId,
      name,
      response: part.isError === true ? { error: text } : toResponseObject(text),
      ...(media.length > 0 ? { parts: media } : {}),
    },
  };
}

function toResponseObject(text: string): Record<string, unknown> {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      const value: unknown = JSON.parse(trimmed);
      if (isRecord(value)) {
        const keys = Object.keys(value);
        const looksWrapped = keys.length === 1 && WRAPPER_KEYS.has(keys[0] ?? '') && typeof value[keys[0] ?? ''] === 'string';
        if (!looksWrapped) return value;
      }
    } catch {
      // Not JSON after all: send it as text.
    }
  }
  return { output: text };
}
