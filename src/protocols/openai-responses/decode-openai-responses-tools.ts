import type { ToolChoice, ToolDefinition } from '../../core/chat-request.ts';
import { invalidRequest } from '../../core/gateway-error.ts';
import type { Warning } from '../../core/warning.ts';
import { CUSTOM_TOOL_PARAMETERS } from '../openai-chat/decode-openai-chat-tools.ts';
import { isRecord } from '../shared/is-record.ts';

const EMPTY_PARAMETERS: Record<string, unknown> = { type: 'object', properties: {} };

/** Responses tools are flat (`{type:"function",name,parameters}`); hosted tools cannot be relayed. */
export function decodeOpenAiResponsesTools(raw: unknown, warnings: Warning[]): ToolDefinition[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalidRequest("'tools' must be an array of tool definitions.", 'tools');
  const tools: ToolDefinition[] = [];
  raw.forEach((tool, index) => {
    const param = `tools[${index}]`;
    if (!isRecord(tool)) throw invalidRequest(`'${param}' must be a tool object.`, param);
    // Tolerate the Chat Completions nesting, which some clients send here by mistake.
    const source = tool.type === 'function' && isRecord(tool.function) ? tool.function : tool;
    if (tool.type === 'function' || tool.type === 'custom') {
      if (typeof source.name !== 'string') throw invalidRequest(`'${param}.name' must be a string.`, `${param}.name`);
      const description = typeof source.description === 'string' ? { description: source.description } : {};
      if (tool.type === 'custom') {
        warnings.push({
          type: 'compatibility',
          feature: 'custom_tool',
          detail: `tool '${source.name}' is freeform; it is offered as a function with one string parameter 'input'`,
        });
        tools.push({ name: source.name, ...description, parameters: CUSTOM_TOOL_PARAMETERS });
        return;
      }
      tools.push({
        name: source.name,
        ...description,
        parameters: isRecord(source.parameters) ? source.parameters : EMPTY_PARAMETERS,
        ...(typeof source.strict === 'boolean' ? { strict: source.strict } : {}),
      });
      return;
    }
    warnings.push({
      type: 'unsupported',
      feature: `tools.${typeof tool.type === 'string' ? tool.type : 'unknown'}`,
      detail: 'hosted tools run inside OpenAI only; this tool was not offered to the model',
    });
  });
  return tools;
}

export function decodeOpenAiResponsesToolChoice(raw: unknown, warnings: Warning[]): ToolChoice | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (raw === 'auto' || raw === 'none' || raw === 'required') return { type: raw };
  if (isRecord(raw)) {
    if ((raw.type === 'function' || raw.type === 'custom') && typeof raw.name === 'string') {
      return { type: 'tool', name: raw.name };
    }
    if (raw.type === 'allowed_tools') {
      warnings.push({
        type: 'compatibility',
        feature: 'tool_choice.allowed_tools',
        detail: 'the allowed-tools subset is not enforced; every declared tool stays available',
      });
      return { type: raw.mode === 'required' ? 'required' : 'auto' };
    }
    if (typeof raw.type === 'string') {
      warnings.push({ type: 'unsupported', feature: `tool_choice.${raw.type}`, detail: 'hosted tool choice replaced by auto' });
      return { type: 'auto' };
    }
  }
  throw invalidRequest(`'tool_choice' must be "auto", "none", "required" or {"type":"function","name":"..."}.`, 'tool_choice');
}
