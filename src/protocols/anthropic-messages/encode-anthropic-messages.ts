import type { AssistantMessage, Message, TextPart, ToolMessage, UserMessage } from '../../core/chat-request.ts';
import type { Warning } from '../../core/warning.ts';
import { parseToolArguments } from '../shared/parse-tool-arguments.ts';
import type {
  AnthropicImageBlock,
  AnthropicMessageParam,
  AnthropicRequestBlock,
  AnthropicTextBlock,
  AnthropicToolResultBlock,
} from './anthropic-wire-types.ts';
import { encodeAnthropicDocument, encodeAnthropicImage, withCacheControl } from './encode-anthropic-media.ts';

/** Anthropic rejects empty text blocks and empty messages; this stands in for "nothing". */
const PLACEHOLDER_TEXT = '...';

interface EncodeState {
  sanitizeId: (id: string) => string;
  warnings: Warning[];
  droppedUnsignedReasoning: number;
}

/** Blank text blocks are left out: Anthropic rejects them. */
function pushText(blocks: { push(block: AnthropicTextBlock): unknown }, part: TextPart): void {
  if (part.text.trim() !== '') blocks.push(withCacheControl<AnthropicTextBlock>({ type: 'text', text: part.text }, part.providerMetadata));
}

function encodeUser(message: UserMessage, state: EncodeState): AnthropicRequestBlock[] {
  const blocks: AnthropicRequestBlock[] = [];
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
        pushText(blocks, part);
        break;
      case 'image': {
        const block = encodeAnthropicImage(part, state.warnings);
        if (block) blocks.push(block);
        break;
      }
      case 'file': {
        const block = encodeAnthropicDocument(part, state.warnings);
        if (block) blocks.push(block);
        break;
      }
      default: {
        const unreachable: never = part;
        throw new Error(`unknown user part ${JSON.stringify(unreachable)}`);
      }
    }
  }
  return blocks;
}

function encodeAssistant(message: AssistantMessage, state: EncodeState): AnthropicRequestBlock[] {
  const blocks: AnthropicRequestBlock[] = [];
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
        pushText(blocks, part);
        break;
      case 'reasoning':
        // Anthropic verifies signatures, so only its own thinking can be replayed.
        if (part.redactedData !== undefined) blocks.push({ type: 'redacted_thinking', data: part.redactedData });
        else if (part.signature !== undefined && part.signature !== '') {
          blocks.push({ type: 'thinking', thinking: part.text, signature: part.signature });
        } else state.droppedUnsignedReasoning += 1;
        break;
      case 'tool-call':
        blocks.push(
          withCacheControl(
            { type: 'tool_use', id: state.sanitizeId(part.callId), name: part.name, input: parseToolArguments(part.arguments) },
            part.providerMetadata,
          ),
        );
        break;
      default: {
        const unreachable: never = part;
        throw new Error(`unknown assistant part ${JSON.stringify(unreachable)}`);
      }
    }
  }
  return blocks;
}

function encodeToolResults(message: ToolMessage, state: EncodeState): AnthropicRequestBlock[] {
  return message.content.map((part) => {
    const content: Array<AnthropicTextBlock | AnthropicImageBlock> = [];
    for (const inner of part.content) {
      if (inner.type === 'text') {
        pushText(content, inner);
      } else {
        const image = encodeAnthropicImage(inner, state.warnings);
        if (image) content.push(image);
      }
    }
    const block: AnthropicToolResultBlock = { type: 'tool_result', tool_use_id: state.sanitizeId(part.callId) };
    if (content.length > 0) block.content = content;
    if (part.isError !== undefined) block.is_error = part.isError;
    return withCacheControl(block, part.providerMetadata);
  });
}

function encodeMessage(message: Message, state: EncodeState): AnthropicMessageParam {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: encodeUser(message, state) };
    case 'assistant':
      return { role: 'assistant', content: encodeAssistant(message, state) };
    case 'tool':
      return { role: 'user', content: encodeToolResults(message, state) };
    default: {
      const unreachable: never = message;
      throw new Error(`unknown message ${JSON.stringify(unreachable)}`);
    }
  }
}

/**
 * Canonical messages → Anthropic turns that Anthropic accepts: roles alternate (same-role
 * neighbours merged, tool results folded into the user turn), tool results lead their turn,
 * no turn is empty, and the conversation opens with a user turn.
 */
export function encodeAnthropicMessages(messages: Message[], sanitizeId: (id: string) => string, warnings: Warning[]): AnthropicMessageParam[] {
  const state: EncodeState = { sanitizeId, warnings, droppedUnsignedReasoning: 0 };
  const turns: AnthropicMessageParam[] = [];
  for (const message of messages) {
    const encoded = encodeMessage(message, state);
    const last = turns.at(-1);
    if (last && last.role === encoded.role) last.content.push(...encoded.content);
    else turns.push(encoded);
  }
  for (const turn of turns) {
    if (turn.role === 'user') {
      const results = turn.content.filter((block) => block.type === 'tool_result');
      if (results.length > 0) turn.content = [...results, ...turn.content.filter((block) => block.type !== 'tool_result')];
    }
    if (turn.content.length === 0) turn.content.push({ type: 'text', text: PLACEHOLDER_TEXT });
  }
  if (turns[0]?.role === 'assistant') turns.unshift({ role: 'user', content: [{ type: 'text', text: PLACEHOLDER_TEXT }] });
  if (state.droppedUnsignedReasoning > 0) {
    warnings.push({
      type: 'unsupported',
      feature: 'reasoning_history',
      detail: `${state.droppedUnsignedReasoning} reasoning part(s) without an Anthropic signature were dropped from the history; Anthropic verifies thinking signatures.`,
    });
  }
  return turns;
}
