/**
 * Tool-call arguments travel as JSON text in OpenAI protocols and as objects in Anthropic and
 * Gemini. Empty text means "no arguments"; text that is not a JSON object (a weak model's
 * output) is kept under `raw` rather than dropped, so the caller still sees what was produced.
 */
export function parseToolArguments(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
    return { raw: value };
  } catch {
    return { raw: text };
  }
}
