import type { ToolChoice, ToolDefinition } from '../../core/chat-request.ts';
import { invalidRequest } from '../../core/gateway-error.ts';
import type { Warning } from '../../core/warning.ts';
import { isRecord } from '../shared/is-record.ts';

/** Freeform (`custom`) tools become a function taking one string, which every upstream can call. */
export const CUSTOM_TOOL_PARAMETERS: Record<string, unknown> = {
  type: 'object',
  properties: { input: { type: 'string', description: 'The raw input for this tool.' } },
  required: ['input'],
  additionalProperties: false,
};

const EMPTY_PARAMETERS: Record<string, unknown> = { type: 'object', properties: {} };

export function decodeOpenAiChatTools(raw: unknown, warnings: Warning[]): ToolDefinition[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalidRequest("'tools' must be an array of tool definitions.", 'tools');
  return raw.map((tool, index): ToolDefinition => {
    const param = `tools[${index}]`;
    if (!isRecord(tool)) throw invalidRequest(`'${param}' must be a tool object.`, param);
    if (tool.type === 'custom' && isRecord(tool.custom)) {
      const name = tool.custom.name;
      if (typeof name !== 'string') throw invalidRequest(`'${param}.custom.name' must be a string.`, `${param}.custom.name`);
      warnings.push({
        type: 'compatibility',
        feature: 'custom_tool',
        detail: `tool '${name}' is freeform; it is offered as a function with one string parameter 'input'`,
      });
      const description = typeof tool.custom.description === 'string' ? { description: tool.custom.description } : {};
      return { name, ...description, parameters: CUSTOM_TOOL_PARAMETERS };
    }
    const fn = tool.function;
    if (tool.type !== 'function' || !isRecord(fn) || typeof fn.name !== 'string') {
      throw invalidRequest(`'${param}' must be {"type":"function","function":{"name":"...","parameters":{...}}}.`, `${param}.function.name`);
    }
    return {
      name: fn.name,
      ...(typeof fn.description === 'string' ? { description: fn.description } : {}),
      parameters: isRecord(fn.parameters) ? fn.parameters : EMPTY_PARAMETERS,
      ...(typeof fn.strict === 'boolean' ? { strict: fn.strict } : {}),
    };
  });
}

export function decodeOpenAiChatToolChoice(raw: unknown, warnings: Warning[]): ToolChoice | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (raw === 'auto' || raw === 'none' || raw === 'required') return { type: raw };
  if (isRecord(raw)) {
    if (raw.type === 'function' && isRecord(raw.function) && typeof raw.function.name === 'string') {
      return { type: 'tool', name: raw.function.name };
    }
    if (raw.type === 'custom' && isRecord(raw.custom) && typeof raw.custom.name === 'string') {
      return { type: 'tool', name: raw.custom.name };
    }
    if (raw.type === 'allowed_tools') {
      const mode = isRecord(raw.allowed_tools) ? raw.allowed_tools.mode : undefined;
      warnings.push({
        type: 'compatibility',
        feature: 'tool_choice.allowed_tools',
        detail: 'the allowed-tools subset is not enforced; every declared tool stays available',
      });
      return { type: mode === 'required' ? 'required' : 'auto' };
    }
  }
  throw invalidRequest(`'tool_choice' must be "auto", "none", "required" or {"type":"function","function":{"name":"..."}}.`, 'tool_choice');
}
