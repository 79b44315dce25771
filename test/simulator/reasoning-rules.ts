import type { ErrorReply } from './provider-errors.ts';
import { awsError, providerError } from './provider-errors.ts';
import type { ReasoningSeal } from './reasoning-seal.ts';
import type { RecordedRequest } from './recorded-request.ts';

/**
 * The published rules each provider enforces on reasoning state coming back in history, with
 * their real error texts. The gateway must never send what these refuse (see README).
 */
export function checkReasoningRules(request: RecordedRequest, seal: ReasoningSeal): ErrorReply | undefined {
  if (request.endpoint !== 'generate' || !isRecord(request.body)) return undefined;
  switch (request.protocol) {
    case 'anthropic-messages':
      return checkAnthropic(request.body, seal);
    case 'gemini-generate-content':
      return isGemini3(request.model) ? checkGemini3(request.body, seal) : undefined;
    case 'openai-responses':
      return checkResponses(request.body, seal);
    case 'bedrock-converse':
      return /anthropic|claude/i.test(request.model ?? '') ? checkConverseClaude(request.body, seal) : undefined;
    default:
      return undefined;
  }
}

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isGemini3(model: string | undefined): boolean {
  return model !== undefined && /^(models\/)?gemini-3/.test(model);
}

// ---------------------------------------------------------------------------------------------
// Anthropic (extended thinking): every thinking block must carry the signature Anthropic issued
// for its exact text; with thinking on, the assistant turn before the last tool results must
// start with thinking; a turn holding thinking must start with it; with thinking off, a final
// (prefill) assistant turn may not hold thinking.

const ANTHROPIC_FINAL_RULE =
  'When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking';

function anthropicBlocks(content: unknown): Json[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter(isRecord) : [];
}

const isThinking = (block: Json | undefined) => block?.type === 'thinking' || block?.type === 'redacted_thinking';

function checkAnthropic(body: Json, seal: ReasoningSeal): ErrorReply | undefined {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];
  const thinking = isRecord(body.thinking) ? body.thinking.type : undefined;
  const thinkingOn = thinking === 'enabled' || thinking === 'adaptive';
  const refuse = (message: string) => providerError('anthropic-messages', 400, message);

  for (const [index, message] of messages.entries()) {
    if (message.role !== 'assistant') continue;
    const blocks = anthropicBlocks(message.content);
    for (const [at, block] of blocks.entries()) {
      if (block.type === 'thinking') {
        const text = typeof block.thinking === 'string' ? block.thinking : '';
        if (typeof block.signature !== 'string' || !seal.verifyAnthropic(text, block.signature)) {
          return refuse(`messages.${index}.content.${at}: Invalid \`signature\` in \`thinking\` block`);
        }
      }
      if (block.type === 'redacted_thinking' && (typeof block.data !== 'string' || !seal.verifyRedacted(block.data))) {
        return refuse(`messages.${index}.content.${at}: Invalid \`data\` in \`redacted_thinking\` block`);
      }
    }
    if (blocks.some(isThinking) && !isThinking(blocks[0])) {
      return refuse(
        `messages.${index}.content.0: If an assistant message contains any thinking blocks, the first block must be thinking or redacted_thinking. Found ${String(blocks[0]?.type)}.`,
      );
    }
    const final = index === messages.length - 1;
    if (final && !thinkingOn) {
      const at = blocks.findIndex(isThinking);
      if (at >= 0) {
        return refuse(
          `messages.${index}.content.${at}: When thinking is disabled, an \`assistant\` message in the final position cannot contain \`thinking\`. To use thinking blocks, enable \`thinking\` in your request.`,
        );
      }
    }
  }

  if (thinkingOn && messages.length >= 2) {
    const last = messages[messages.length - 1]!;
    const before = messages[messages.length - 2]!;
    const lastHasResults = last.role === 'user' && anthropicBlocks(last.content).some((block) => block.type === 'tool_result');
    const blocks = anthropicBlocks(before.content);
    if (lastHasResults && before.role === 'assistant' && blocks.some((block) => block.type === 'tool_use') && !isThinking(blocks[0])) {
      return refuse(
        `messages.${messages.length - 2}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(blocks[0]?.type)}\`. ${ANTHROPIC_FINAL_RULE}`,
      );
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Claude on Bedrock (Converse): the same rules as on Anthropic's API, on Converse's blocks
// (`reasoningContent`, `toolUse`, `toolResult`; thinking in `additionalModelRequestFields`),
// refused as a ValidationException that quotes the model's error.

function checkConverseClaude(body: Json, seal: ReasoningSeal): ErrorReply | undefined {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];
  const additional = isRecord(body.additionalModelRequestFields) ? body.additionalModelRequestFields : {};
  const thinkingOn = isRecord(additional.thinking) && additional.thinking.type === 'enabled';
  const refuse = (message: string) => awsError(400, `The model returned the following errors: ${message}`);
  const blocksOf = (message: Json) => (Array.isArray(message.content) ? message.content.filter(isRecord) : []);
  const isReasoning = (block: Json | undefined) => isRecord(block?.reasoningContent);

  for (const [index, message] of messages.entries()) {
    if (message.role !== 'assistant') continue;
    const blocks = blocksOf(message);
    for (const [at, block] of blocks.entries()) {
      if (!isRecord(block.reasoningContent)) continue;
      const reasoning = block.reasoningContent;
      if (isRecord(reasoning.reasoningText)) {
        const { text, signature } = reasoning.reasoningText;
        if (typeof signature !== 'string' || !seal.verifyAnthropic(typeof text === 'string' ? text : '', signature)) {
          return refuse(`messages.${index}.content.${at}: Invalid \`signature\` in \`thinking\` block`);
        }
      } else if (typeof reasoning.redactedContent !== 'string' || !seal.verifyRedacted(reasoning.redactedContent)) {
        return refuse(`messages.${index}.content.${at}: Invalid \`data\` in \`redacted_thinking\` block`);
      }
    }
    if (blocks.some(isReasoning) && !isReasoning(blocks[0])) {
      return refuse(
        `messages.${index}.content.0: If an assistant message contains any thinking blocks, the first block must be thinking or redacted_thinking.`,
      );
    }
  }
  if (thinkingOn && messages.length >= 2) {
    const last = messages[messages.length - 1]!;
    const before = messages[messages.length - 2]!;
    const blocks = blocksOf(before);
    const inToolLoop =
      last.role === 'user' &&
      blocksOf(last).some((block) => isRecord(block.toolResult)) &&
      before.role === 'assistant' &&
      blocks.some((block) => isRecord(block.toolUse));
    if (inToolLoop && !isReasoning(blocks[0])) {
      return refuse(
        `messages.${messages.length - 2}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${Object.keys(blocks[0] ?? {})[0] ?? 'nothing'}\`. ${ANTHROPIC_FINAL_RULE}`,
      );
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Gemini 3: in the current turn (everything after the last user message with text), the first
// function call of every model step must carry the thought signature Gemini returned; any
// signature sent back must be one Gemini issued (or a documented skip placeholder).

function geminiField(part: Json, camel: string, snake: string): unknown {
  return part[camel] ?? part[snake];
}

function checkGemini3(body: Json, seal: ReasoningSeal): ErrorReply | undefined {
  const contents = Array.isArray(body.contents) ? body.contents.filter(isRecord) : [];
  const partsOf = (content: Json) => (Array.isArray(content.parts) ? content.parts.filter(isRecord) : []);
  const refuse = (message: string) => providerError('gemini-generate-content', 400, message);

  for (const content of contents) {
    for (const part of partsOf(content)) {
      const signature = geminiField(part, 'thoughtSignature', 'thought_signature');
      if (signature !== undefined && (typeof signature !== 'string' || !seal.verifyGemini(signature))) {
        return refuse('Corrupted thought signature.');
      }
    }
  }

  let turnStart = -1;
  contents.forEach((content, index) => {
    const fromUser = content.role === undefined || content.role === 'user';
    if (fromUser && partsOf(content).some((part) => typeof part.text === 'string')) turnStart = index;
  });
  for (let index = turnStart + 1; index < contents.length; index += 1) {
    const content = contents[index]!;
    if (content.role !== 'model') continue;
    const firstCall = partsOf(content).find((part) => isRecord(geminiField(part, 'functionCall', 'function_call')));
    if (firstCall === undefined || geminiField(firstCall, 'thoughtSignature', 'thought_signature') !== undefined) continue;
    const call = geminiField(firstCall, 'functionCall', 'function_call') as Json;
    return refuse(
      `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${String(call.name)}\` , position ${index + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
    );
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// OpenAI Responses: encrypted reasoning must be OpenAI's own; with `store: false` a reasoning
// item without it cannot be found; a function call OpenAI emitted after reasoning needs that
// reasoning item next to it (unless the chain continues through previous_response_id).

function abbreviate(value: string): string {
  return value.length <= 8 ? value : `${value.slice(0, 4)}...${value.slice(-4)}`;
}

function checkResponses(body: Json, seal: ReasoningSeal): ErrorReply | undefined {
  const input = Array.isArray(body.input) ? body.input.filter(isRecord) : [];
  const stored = body.store !== false;
  const openAiError = (status: number, message: string, param: string | null, code: string | null): ErrorReply => ({
    status,
    body: { error: { message, type: 'invalid_request_error', param, code } },
  });

  const reasoningIds = new Set<string>();
  for (const item of input) {
    // A stored item referenced by id stands for the item itself (checked against what was stored).
    if (item.type === 'item_reference' && typeof item.id === 'string') reasoningIds.add(item.id);
    if (item.type !== 'reasoning') continue;
    if (typeof item.id === 'string') reasoningIds.add(item.id);
    const encrypted = item.encrypted_content;
    if (typeof encrypted === 'string') {
      if (!seal.verifyResponses(encrypted)) {
        return openAiError(400, `The encrypted content ${abbreviate(encrypted)} could not be verified.`, null, 'invalid_encrypted_content');
      }
    } else if (!stored) {
      return openAiError(
        404,
        `Item with id '${String(item.id)}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
        'input',
        null,
      );
    }
  }
  if (typeof body.previous_response_id === 'string') return undefined;
  for (const item of input) {
    if (item.type !== 'function_call' || typeof item.id !== 'string') continue;
    const required = seal.requiredReasoningFor(item.id);
    if (required !== undefined && !reasoningIds.has(required)) {
      return openAiError(400, `Item '${item.id}' of type 'function_call' was provided without its required 'reasoning' item: '${required}'.`, 'input', null);
    }
  }
  return undefined;
}
