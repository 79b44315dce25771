import type { AssistantContentPart, ImagePart, Message, TextPart, ToolResultPart, UserContentPart } from '../../core/chat-request.ts';
import { invalidRequest } from '../../core/gateway-error.ts';
import type { Warning } from '../../core/warning.ts';
import { isRecord } from '../shared/is-record.ts';
import { decodeAnthropicDocument, decodeAnthropicImage, readCacheControl } from './decode-anthropic-media.ts';

/** Per-request state: tool names by call id, so results (which carry only the id) get their name. */
interface DecodeState {
  toolNames: Map<string, string>;
  warnings: Warning[];
}

export function decodeAnthropicText(block: Record<string, unknown>, param: string): TextPart {
  if (typeof block.text !== 'string') throw invalidRequest(`${param}.text must be a string.`, `${param}.text`);
  const part: TextPart = { type: 'text', text: block.text };
  const metadata = readCacheControl(block);
  if (metadata) part.providerMetadata = metadata;
  return part;
}

function readBlocks(content: unknown, param: string): Record<string, unknown>[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) {
    throw invalidRequest(`${param} must be a string or an array of content blocks.`, param);
  }
  return content.map((block, index) => {
    const blockParam = `${param}.${index}`;
    if (!isRecord(block)) throw invalidRequest(`${blockParam} must be an object.`, blockParam);
    if (typeof block.type !== 'string') {
      throw invalidRequest(`${blockParam}.type is required and must be a string.`, `${blockParam}.type`);
    }
    return block;
  });
}

function dropBlock(state: DecodeState, param: string, type: string, role: string): void {
  state.warnings.push({
    type: 'unsupported',
    feature: `content-block:${type}`,
    detail: `${param} (a ${type} block in a ${role} message) cannot be translated and was dropped.`,
  });
}

function decodeToolResultContent(content: unknown, param: string, state: DecodeState): Array<TextPart | ImagePart> {
  if (content === undefined || content === null) return [];
  const parts: Array<TextPart | ImagePart> = [];
  readBlocks(content, param).forEach((block, index) => {
    const blockParam = `${param}.${index}`;
    if (block.type === 'text') parts.push(decodeAnthropicText(block, blockParam));
    else if (block.type === 'image') {
      const image = decodeAnthropicImage(block, blockParam, state.warnings);
      if (image) parts.push(image);
    } else dropBlock(state, blockParam, block.type as string, 'tool_result');
  });
  return parts;
}

function decodeToolResult(block: Record<string, unknown>, param: string, state: DecodeState): ToolResultPart {
  if (typeof block.tool_use_id !== 'string') {
    throw invalidRequest(`${param}.tool_use_id must be a string.`, `${param}.tool_use_id`);
  }
  const part: ToolResultPart = {
    type: 'tool-result',
    callId: block.tool_use_id,
    content: decodeToolResultContent(block.content, `${param}.content`, state),
  };
  const name = state.toolNames.get(block.tool_use_id);
  if (name !== undefined) part.name = name;
  if (typeof block.is_error === 'boolean') part.isError = block.is_error;
  const metadata = readCacheControl(block);
  if (metadata) part.providerMetadata = metadata;
  return part;
}

/** A user turn may hold tool results; canonically they are a tool message that comes first. */
function decodeUserTurn(content: unknown, param: string, state: DecodeState): Message[] {
  const results: ToolResultPart[] = [];
  const parts: UserContentPart[] = [];
  readBlocks(content, param).forEach((block, index) => {
    const blockParam = `${param}.${index}`;
    switch (block.type) {
      case 'text':
        parts.push(decodeAnthropicText(block, blockParam));
        return;
      case 'image': {
        const image = decodeAnthropicImage(block, blockParam, state.warnings);
        if (image) parts.push(image);
        return;
      }
      case 'document': {
        const file = decodeAnthropicDocument(block, blockParam, state.warnings);
        if (file) parts.push(file);
        return;
      }
      case 'tool_result':
        results.push(decodeToolResult(block, blockParam, state));
        return;
      default:
        dropBlock(state, blockParam, block.type as string, 'user');
    }
  });
  const messages: Message[] = [];
  if (results.length > 0) messages.push({ role: 'tool', content: results });
  if (parts.length > 0 || results.length === 0) messages.push({ role: 'user', content: parts });
  return messages;
}

function decodeAssistantTurn(content: unknown, param: string, state: DecodeState): Message {
  const parts: AssistantContentPart[] = [];
  readBlocks(content, param).forEach((block, index) => {
    const blockParam = `${param}.${index}`;
    switch (block.type) {
      case 'text':
        parts.push(decodeAnthropicText(block, blockParam));
        return;
      case 'thinking': {
        if (typeof block.thinking !== 'string') {
          throw invalidRequest(`${blockParam}.thinking must be a string.`, `${blockParam}.thinking`);
        }
        // Kept even when empty: Claude Code replays unsigned blocks, and the encoder decides.
        parts.push(
          typeof block.signature === 'string' && block.signature !== ''
            ? { type: 'reasoning', text: block.thinking, signature: block.signature }
            : { type: 'reasoning', text: block.thinking },
        );
        return;
      }
      case 'redacted_thinking':
        if (typeof block.data !== 'string') {
          throw invalidRequest(`${blockParam}.data must be a string.`, `${blockParam}.data`);
        }
        parts.push({ type: 'reasoning', text: '', redactedData: block.data });
        return;
      case 'tool_use': {
        if (typeof block.id !== 'string') throw invalidRequest(`${blockParam}.id must be a string.`, `${blockParam}.id`);
        if (typeof block.name !== 'string') {
          throw invalidRequest(`${blockParam}.name must be a string.`, `${blockParam}.name`);
        }
        state.toolNames.set(block.id, block.name);
        const input = block.input === undefined || block.input === null ? {} : block.input;
        const part: AssistantContentPart = {
          type: 'tool-call',
          callId: block.id,
          name: block.name,
          arguments: JSON.stringify(input),
        };
        const metadata = readCacheControl(block);
        if (metadata) part.providerMetadata = metadata;
        parts.push(part);
        return;
      }
      default:
        dropBlock(state, blockParam, block.type as string, 'assistant');
    }
  });
  return { role: 'assistant', content: parts };
}

/**
 * Anthropic `messages` → canonical messages, tool results split out of user turns. Messages with
 * role "system" (Claude Code 2.1 puts environment notes there) have their text appended to
 * `hoistedSystem`: the canonical request keeps instructions in one place.
 */
export function decodeAnthropicMessages(raw: unknown, warnings: Warning[], hoistedSystem: TextPart[]): Message[] {
  if (!Array.isArray(raw)) throw invalidRequest('"messages" must be an array of messages.', 'messages');
  const state: DecodeState = { toolNames: new Map(), warnings };
  const messages: Message[] = [];
  raw.forEach((message, index) => {
    const param = `messages.${index}`;
    if (!isRecord(message)) throw invalidRequest(`${param} must be an object with "role" and "content".`, param);
    if (message.role === 'user') messages.push(...decodeUserTurn(message.content, `${param}.content`, state));
    else if (message.role === 'assistant') {
      messages.push(decodeAssistantTurn(message.content, `${param}.content`, state));
    } else if (message.role === 'system') {
      hoistedSystem.push(...decodeSystemTurn(message.content, `${param}.content`));
    } else {
      throw invalidRequest(`${param}.role must be "user", "assistant" or "system".`, `${param}.role`);
    }
  });
  return messages;
}

function decodeSystemTurn(content: unknown, param: string): TextPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw invalidRequest(`${param} must be a string or an array of text blocks.`, param);
  return content.map((block, index) => {
    const blockParam = `${param}.${index}`;
    if (!isRecord(block) || block.type !== 'text') {
      throw invalidRequest(`${blockParam} must be a text block: system messages carry text only.`, blockParam);
    }
    return decodeAnthropicText(block, blockParam);
  });
}
