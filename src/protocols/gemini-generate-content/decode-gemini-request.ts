import type { ChatRequest, TextPart } from '../../core/chat-request.ts';
import { invalidRequest } from '../../core/gateway-error.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { Warning } from '../../core/warning.ts';
import type { ClientRequestInput, Decoded } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';
import { decodeGeminiContents } from './decode-gemini-contents.ts';
import { decodeGeminiGenerationConfig } from './decode-gemini-generation-config.ts';
import { decodeGeminiToolConfig, decodeGeminiTools } from './decode-gemini-tools.ts';
import { normalizeGeminiKeys } from './normalize-gemini-keys.ts';
import { readGeminiPart } from './read-gemini-part.ts';
import { uniqueWarnings } from './unique-warnings.ts';

/** Top-level fields that change the answer but have no canonical equivalent. */
const IGNORED_WITH_WARNING = ['safetySettings', 'cachedContent'];

/** Gemini model ids arrive as `models/gemini-2.5-flash` or bare; the canonical name is bare. */
export function stripGeminiModelPrefix(model: string): string {
  return model.startsWith('models/') ? model.slice('models/'.length) : model;
}

/**
 * A Gemini generateContent request → canonical. The model and the streaming choice live in
 * the URL (`/models/{model}:streamGenerateContent`), so the server passes them alongside.
 */
export function decodeGeminiRequest(input: ClientRequestInput, context: RuntimeContext): Decoded<ChatRequest> {
  const body = normalizeGeminiKeys(input.body);
  if (!isRecord(body)) {
    throw invalidRequest('The request body must be a JSON object with `contents`.', 'body');
  }
  const warnings: Warning[] = [];
  const messages = decodeGeminiContents(body.contents, context, warnings);
  const request: ChatRequest = {
    model: stripGeminiModelPrefix(input.pathModel ?? (typeof body.model === 'string' ? body.model : '')),
    system: decodeSystemInstruction(body.systemInstruction),
    messages,
    tools: decodeGeminiTools(body.tools, warnings),
    ...decodeGeminiGenerationConfig(body.generationConfig, warnings),
    stream: input.pathStream ?? false,
  };
  const toolChoice = decodeGeminiToolConfig(body.toolConfig, warnings);
  if (toolChoice) request.toolChoice = toolChoice;
  for (const field of IGNORED_WITH_WARNING) {
    if (body[field] !== undefined && body[field] !== null) warnings.push({ type: 'unsupported', feature: field });
  }
  return { value: request, warnings: uniqueWarnings(warnings) };
}

/** `systemInstruction` is a Content (`{parts:[{text}]}`); some clients send a bare string. */
function decodeSystemInstruction(instruction: unknown): TextPart[] {
  if (instruction === undefined || instruction === null) return [];
  if (typeof instruction === 'string') return instruction === '' ? [] : [{ type: 'text', text: instruction }];
  if (!isRecord(instruction) || !Array.isArray(instruction.parts)) {
    throw invalidRequest('`systemInstruction` must be an object with a `parts` array of text parts.', 'systemInstruction');
  }
  return instruction.parts.map((part, i): TextPart => {
    const view = readGeminiPart(part);
    if (view.kind !== 'text') {
      const path = `systemInstruction.parts[${i}].text`;
      throw invalidRequest(`\`${path}\` must be a string: system instructions hold text only.`, path);
    }
    return { type: 'text', text: view.text };
  });
}
