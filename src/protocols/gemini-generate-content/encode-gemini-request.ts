import type { ChatRequest, ToolChoice } from '../../core/chat-request.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { Warning } from '../../core/warning.ts';
import type { Decoded, UpstreamRequestOutput } from '../protocol-codec.ts';
import { encodeGeminiContents } from './encode-gemini-contents.ts';
import { encodeGeminiGenerationConfig } from './encode-gemini-generation-config.ts';
import { uniqueWarnings } from './unique-warnings.ts';

/**
 * Canonical → a Gemini generateContent body. The model and streaming choice go beside the
 * body: the channel puts them in the URL (`:streamGenerateContent?alt=sse`).
 */
export function encodeGeminiRequest(request: ChatRequest, _context: RuntimeContext): Decoded<UpstreamRequestOutput> {
  const warnings: Warning[] = [];
  const body: Record<string, unknown> = { contents: encodeGeminiContents(request.messages, warnings) };
  const system = request.system.filter((part) => part.text !== '');
  if (system.length > 0) body.systemInstruction = { parts: system.map((part) => ({ text: part.text })) };
  if (request.tools.length > 0) {
    // JSON Schema goes untouched as `parametersJsonSchema` (what Gemini CLI sends), which
    // avoids lossy cleaning into Gemini's OpenAPI subset.
    body.tools = [
      {
        functionDeclarations: request.tools.map((tool) => ({
          name: tool.name,
          ...(tool.description === undefined ? {} : { description: tool.description }),
          parametersJsonSchema: tool.parameters,
        })),
      },
    ];
  }
  if (request.toolChoice !== undefined) body.toolConfig = { functionCallingConfig: encodeToolChoice(request.toolChoice) };
  const generationConfig = encodeGeminiGenerationConfig(request, warnings);
  if (generationConfig !== undefined) body.generationConfig = generationConfig;
  // Gemini may call several functions at once and cannot be told not to; `true` is its default.
  if (request.parallelToolCalls === false) warnings.push({ type: 'unsupported', feature: 'parallelToolCalls' });
  if (request.user !== undefined) warnings.push({ type: 'unsupported', feature: 'user' });
  return { value: { body, model: request.model, stream: request.stream }, warnings: uniqueWarnings(warnings) };
}

function encodeToolChoice(choice: ToolChoice): Record<string, unknown> {
  switch (choice.type) {
    case 'auto':
      return { mode: 'AUTO' };
    case 'none':
      return { mode: 'NONE' };
    case 'required':
      return { mode: 'ANY' };
    case 'tool':
      return { mode: 'ANY', allowedFunctionNames: [choice.name] };
    default: {
      const unreachable: never = choice;
      throw new Error(`unknown tool choice ${JSON.stringify(unreachable)}`);
    }
  }
}
