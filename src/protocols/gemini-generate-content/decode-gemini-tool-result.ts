import type { ImagePart, TextPart, ToolResultPart } from '../../core/chat-request.ts';
import type { Warning } from '../../core/warning.ts';
import { normalizeGeminiKeys } from './normalize-gemini-keys.ts';
import { readGeminiPart, type GeminiPartView } from './read-gemini-part.ts';

type FunctionResponseView = Extract<GeminiPartView, { kind: 'function-response' }>;

/**
 * A Gemini `functionResponse` → a canonical tool result. Gemini requires `response` to be an
 * object, so clients wrap plain text: Gemini CLI sends `{output: "…"}` and `{error: "…"}`,
 * others `{result: "…"}`. Those single-key wrappers unwrap to their text so other upstreams
 * see what the tool said; any other object travels as its JSON text.
 */
export function decodeGeminiToolResult(view: FunctionResponseView, callId: string, warnings: Warning[]): ToolResultPart {
  const { response } = view;
  const keys = Object.keys(response);
  const only = keys.length === 1 ? keys[0] : undefined;
  const wrapped = only === undefined ? undefined : response[only];
  const content: Array<TextPart | ImagePart> = [];
  let isError = false;
  if ((only === 'output' || only === 'result' || only === 'error') && typeof wrapped === 'string') {
    content.push({ type: 'text', text: wrapped });
    isError = only === 'error';
  } else {
    content.push({ type: 'text', text: JSON.stringify(response) });
  }
  for (const inner of view.parts) {
    const media = readGeminiPart(normalizeGeminiKeys(inner));
    if (media.kind === 'inline-data' && media.mimeType.startsWith('image/')) {
      content.push({ type: 'image', source: { kind: 'base64', mediaType: media.mimeType, data: media.data } });
    } else if (media.kind === 'file-data' && (media.mimeType?.startsWith('image/') ?? false)) {
      content.push({ type: 'image', source: { kind: 'url', url: media.fileUri, ...(media.mimeType ? { mediaType: media.mimeType } : {}) } });
    } else {
      warnings.push({ type: 'unsupported', feature: 'functionResponse.parts', detail: 'only images are kept in tool results' });
    }
  }
  return {
    type: 'tool-result',
    callId,
    name: view.name,
    content,
    ...(isError ? { isError: true } : {}),
  };
}
