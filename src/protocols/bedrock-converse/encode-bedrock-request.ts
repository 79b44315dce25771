import type { ChatRequest, FilePart, ImagePart, Message, TextPart, ToolChoice, ToolDefinition } from '../../core/chat-request.ts';
import type { ProviderMetadata } from '../../core/provider-metadata.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { Warning } from '../../core/warning.ts';
import type { Decoded, UpstreamRequestOutput } from '../protocol-codec.ts';
import { DEFAULT_MAX_TOKENS } from '../anthropic-messages/encode-anthropic-request.ts';
import { encodeAnthropicSampling } from '../anthropic-messages/encode-anthropic-sampling.ts';
import { encodeAnthropicThinking } from '../anthropic-messages/encode-anthropic-thinking.ts';
import { parseToolArguments } from '../shared/parse-tool-arguments.ts';

type Block = Record<string, unknown>;

/**
 * Converse tool ids must match `^[a-zA-Z0-9_-]+$` (max 64); foreign ids (dots, colons, none)
 * are made valid deterministically, so a call and its result still match.
 */
function createToolIdSanitizer(context: RuntimeContext): (id: string) => string {
  const seen = new Map<string, string>();
  return (id) => {
    const known = seen.get(id);
    if (known !== undefined) return known;
    const cleaned = id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
    const sanitized = cleaned === '' ? context.generateId('tooluse_') : cleaned;
    seen.set(id, sanitized);
    return sanitized;
  };
}
interface ConverseMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

const IMAGE_FORMATS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};
const DOCUMENT_FORMATS: Record<string, string> = {
  'application/pdf': 'pdf',
  'text/csv': 'csv',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'text/html': 'html',
  'text/plain': 'txt',
  'text/markdown': 'md',
};

/** Anthropic's `cache_control` marks the end of a cacheable prefix; Converse says it with a cache point after the block. */
function cachePointAfter(metadata: ProviderMetadata | undefined): Block[] {
  return metadata?.anthropic?.cacheControl !== undefined ? [{ cachePoint: { type: 'default' } }] : [];
}

function encodeImage(part: ImagePart, warnings: Warning[]): Block[] {
  if (part.source.kind !== 'base64') {
    warnings.push({ type: 'unsupported', feature: 'image-url', detail: 'Bedrock Converse takes images as bytes or from S3; an image URL was dropped.' });
    return [];
  }
  const format = IMAGE_FORMATS[part.source.mediaType.toLowerCase()];
  if (format === undefined) {
    warnings.push({ type: 'unsupported', feature: 'image-format', detail: `Bedrock Converse does not take ${part.source.mediaType} images.` });
    return [];
  }
  return [{ image: { format, source: { bytes: part.source.data } } }, ...cachePointAfter(part.providerMetadata)];
}

function encodeFile(part: FilePart, index: number, warnings: Warning[]): Block[] {
  const format = part.source.kind === 'base64' ? DOCUMENT_FORMATS[part.source.mediaType.toLowerCase()] : undefined;
  if (part.source.kind !== 'base64' || format === undefined) {
    warnings.push({ type: 'unsupported', feature: 'file', detail: 'Bedrock Converse takes PDF and office documents as bytes only; a file was dropped.' });
    return [];
  }
  // Converse document names allow letters, digits, spaces, hyphens, parentheses and brackets only.
  const name =
    (part.filename ?? `document-${index + 1}`)
      .replace(/\.[^.]*$/, '')
      .replace(/[^A-Za-z0-9 ()[\]-]/g, '-')
      .slice(0, 200) || `document-${index + 1}`;
  return [{ document: { format, name, source: { bytes: part.source.data } } }, ...cachePointAfter(part.providerMetadata)];
}

function encodeText(part: TextPart): Block[] {
  return part.text === '' ? [] : [{ text: part.text }, ...cachePointAfter(part.providerMetadata)];
}

interface EncodeCounters {
  nextFile: number;
  unsignedReasoning: number;
}

function encodeMessage(message: Message, sanitizeId: (id: string) => string, warnings: Warning[], counters: EncodeCounters): ConverseMessage {
  switch (message.role) {
    case 'user':
      return {
        role: 'user',
        content: message.content.flatMap((part) => {
          switch (part.type) {
            case 'text':
              return encodeText(part);
            case 'image':
              return encodeImage(part, warnings);
            case 'file':
              return encodeFile(part, counters.nextFile++, warnings);
            default:
              return [];
          }
        }),
      };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content.flatMap((part): Block[] => {
          switch (part.type) {
            case 'text':
              return encodeText(part);
            case 'reasoning':
              if (part.redactedData !== undefined) return [{ reasoningContent: { redactedContent: part.redactedData } }];
              // Reasoning without a signature cannot be replayed to Claude (it verifies them).
              if (part.signature === undefined || part.signature === '') {
                if (part.text !== '') counters.unsignedReasoning += 1;
                return [];
              }
              return [{ reasoningContent: { reasoningText: { text: part.text, signature: part.signature } } }];
            case 'tool-call':
              return [{ toolUse: { toolUseId: sanitizeId(part.callId), name: part.name, input: parseToolArguments(part.arguments) } }];
            default:
              return [];
          }
        }),
      };
    case 'tool':
      return {
        role: 'user',
        content: message.content.map((result) => ({
          toolResult: {
            toolUseId: sanitizeId(result.callId),
            content: result.content.flatMap((part) => (part.type === 'text' ? [{ text: part.text }] : encodeImage(part, warnings))),
            ...(result.isError ? { status: 'error' } : {}),
          },
        })),
      };
    default: {
      const unreachable: never = message;
      return unreachable;
    }
  }
}

/** Converse requires alternating roles and no empty messages: neighbours of one role are merged. */
function mergeRoles(messages: ConverseMessage[]): ConverseMessage[] {
  const merged: ConverseMessage[] = [];
  for (const message of messages) {
    if (message.content.length === 0) continue;
    const last = merged.at(-1);
    if (last && last.role === message.role) last.content.push(...message.content);
    else merged.push({ role: message.role, content: [...message.content] });
  }
  return merged;
}

function encodeTools(tools: ToolDefinition[]): Block[] {
  return tools.map((tool) => ({
    toolSpec: {
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      inputSchema: { json: tool.parameters },
    },
  }));
}

function encodeToolChoice(choice: ToolChoice | undefined, warnings: Warning[]): Block | undefined {
  switch (choice?.type) {
    case undefined:
    case 'auto':
      return undefined;
    case 'required':
      return { any: {} };
    case 'tool':
      return { tool: { name: choice.name } };
    case 'none':
      warnings.push({ type: 'unsupported', feature: 'toolChoice', detail: 'Bedrock Converse has no "none" tool choice; tools stayed available.' });
      return undefined;
    default:
      return undefined;
  }
}

function isClaude(model: string): boolean {
  return /anthropic|claude/i.test(model);
}

/** Canonical request → Bedrock Converse body (the model and streaming choice go in the URL). */
export function encodeBedrockRequest(request: ChatRequest, context: RuntimeContext): Decoded<UpstreamRequestOutput> {
  const warnings: Warning[] = [];
  const sanitizeId = createToolIdSanitizer(context);
  const counters: EncodeCounters = { nextFile: 0, unsignedReasoning: 0 };
  const body: Record<string, unknown> = {
    messages: mergeRoles(request.messages.map((message) => encodeMessage(message, sanitizeId, warnings, counters))),
  };
  if (counters.unsignedReasoning > 0) {
    warnings.push({
      type: 'unsupported',
      feature: 'reasoning_history',
      detail: `${counters.unsignedReasoning} reasoning part(s) without a Claude signature were dropped from the history; Bedrock's Claude verifies thinking signatures.`,
    });
  }
  const system = request.system.flatMap(encodeText);
  if (system.length > 0) body.system = system;

  const inference: Record<string, unknown> = {};
  if (request.maxOutputTokens !== undefined) inference.maxTokens = request.maxOutputTokens;
  if (request.temperature !== undefined) inference.temperature = request.temperature;
  if (request.topP !== undefined) inference.topP = request.topP;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0) inference.stopSequences = request.stopSequences;
  if (Object.keys(inference).length > 0) body.inferenceConfig = inference;
  // Converse says only `stopReason: "stop_sequence"`; Claude names the sequence that matched in
  // its native reply, which Converse returns when asked for by JSON pointer.
  if (inference.stopSequences !== undefined && isClaude(request.model)) body.additionalModelResponseFieldPaths = ['/stop_sequence'];

  const usesTools = request.messages.some(
    (message) => message.role === 'tool' || (message.role === 'assistant' && message.content.some((part) => part.type === 'tool-call')),
  );
  if (request.tools.length > 0) {
    const toolChoice = encodeToolChoice(request.toolChoice, warnings);
    body.toolConfig = { tools: encodeTools(request.tools), ...(toolChoice ? { toolChoice } : {}) };
  } else if (usesTools) {
    warnings.push({ type: 'compatibility', feature: 'tools', detail: 'Bedrock Converse needs the tool definitions when the history holds tool calls.' });
  }

  const additional: Record<string, unknown> = {};
  if (request.topK !== undefined) {
    if (isClaude(request.model)) additional.top_k = request.topK;
    else warnings.push({ type: 'unsupported', feature: 'topK' });
  }
  let thinkingOn = false;
  if (request.reasoning?.enabled && request.reasoning.effort !== 'none') {
    if (isClaude(request.model)) {
      // Claude's rules and budgets are the same on Bedrock as on Anthropic's API: one function
      // for both, so a model gets the same budget whichever channel serves it.
      const maxTokens = typeof inference.maxTokens === 'number' ? inference.maxTokens : undefined;
      const encoded = encodeAnthropicThinking(request.reasoning, maxTokens ?? DEFAULT_MAX_TOKENS, maxTokens !== undefined, warnings);
      if (encoded.thinking) additional.thinking = encoded.thinking;
      thinkingOn = encoded.thinking !== undefined;
      if (encoded.maxTokens !== maxTokens) {
        inference.maxTokens = encoded.maxTokens;
        body.inferenceConfig = inference;
      }
    } else {
      warnings.push({ type: 'unsupported', feature: 'reasoning', detail: 'Reasoning settings are forwarded to Claude models on Bedrock only.' });
    }
  }
  if (isClaude(request.model)) applyClaudeSampling(request, thinkingOn, inference, additional, warnings);
  if (Object.keys(inference).length === 0) delete body.inferenceConfig;
  if (Object.keys(additional).length > 0) body.additionalModelRequestFields = additional;

  if (request.seed !== undefined) warnings.push({ type: 'unsupported', feature: 'seed' });
  if (request.presencePenalty !== undefined) warnings.push({ type: 'unsupported', feature: 'presencePenalty' });
  if (request.frequencyPenalty !== undefined) warnings.push({ type: 'unsupported', feature: 'frequencyPenalty' });
  if (request.candidateCount !== undefined && request.candidateCount > 1) warnings.push({ type: 'unsupported', feature: 'candidateCount' });
  if (request.responseFormat?.type === 'json') warnings.push({ type: 'unsupported', feature: 'responseFormat' });
  return { value: { body, model: request.model, stream: request.stream }, warnings };
}

/**
 * Claude's sampling rule (temperature ≤ 1; with thinking, temperature 1, top_p ≥ 0.95, no
 * top_k), shared with the Anthropic codec. Values keep their place in the body; one not sent goes.
 */
function applyClaudeSampling(request: ChatRequest, thinkingOn: boolean, inference: Block, additional: Block, warnings: Warning[]): void {
  const sampling = encodeAnthropicSampling(request, thinkingOn, warnings);
  const put = (target: Block, key: string, value: number | undefined) => {
    if (value === undefined) delete target[key];
    else target[key] = value;
  };
  put(inference, 'temperature', sampling.temperature);
  put(inference, 'topP', sampling.topP);
  put(additional, 'top_k', sampling.topK);
}
