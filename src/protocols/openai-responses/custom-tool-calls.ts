import { isRecord } from '../shared/is-record.ts';

/**
 * Custom (freeform) tools — Codex's `apply_patch` with a Lark grammar — reach other upstreams as
 * functions with one string parameter `input`; a call to one goes back to the client as a
 * `custom_tool_call` whose `input` is that string, as OpenAI itself returns it.
 */
export function peekCustomTools(body: unknown): { customTools?: readonly string[] } {
  if (!isRecord(body) || !Array.isArray(body.tools)) return {};
  const names = body.tools.flatMap((tool: unknown) => (isRecord(tool) && tool.type === 'custom' && typeof tool.name === 'string' ? [tool.name] : []));
  return names.length === 0 ? {} : { customTools: names };
}

/** The freeform input carried in a translated call's arguments (`{"input": "..."}`); other shapes as they came. */
export function customToolInput(argumentsJson: string): string {
  try {
    const parsed: unknown = JSON.parse(argumentsJson);
    if (isRecord(parsed) && typeof parsed.input === 'string') return parsed.input;
    if (typeof parsed === 'string') return parsed;
  } catch {
    // A weak model's broken JSON: hand it over as text rather than lose it.
  }
  return argumentsJson;
}
