import type { ToolChoice, ToolDefinition } from '../../core/chat-request.ts';
import { invalidRequest } from '../../core/gateway-error.ts';
import type { Warning } from '../../core/warning.ts';
import { isRecord } from '../shared/is-record.ts';
import { readCacheControl } from './decode-anthropic-media.ts';

/**
 * Client tools become canonical definitions. Server tools (`web_search_*`, `bash_*`,
 * `text_editor_*`, …) run inside Anthropic and mean nothing to another upstream: warned, skipped.
 */
export function decodeAnthropicTools(raw: unknown, warnings: Warning[]): ToolDefinition[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalidRequest('"tools" must be an array of tool definitions.', 'tools');
  const tools: ToolDefinition[] = [];
  raw.forEach((tool, index) => {
    const param = `tools.${index}`;
    if (!isRecord(tool)) throw invalidRequest(`${param} must be an object.`, param);
    if (typeof tool.type === 'string' && tool.type !== 'custom') {
      warnings.push({
        type: 'unsupported',
        feature: 'server-tool',
        detail: `${param} is an Anthropic server tool (${tool.type}) and was skipped.`,
      });
      return;
    }
    if (typeof tool.name !== 'string') throw invalidRequest(`${param}.name must be a string.`, `${param}.name`);
    const schema = tool.input_schema;
    if (schema !== undefined && !isRecord(schema)) {
      throw invalidRequest(`${param}.input_schema must be a JSON Schema object.`, `${param}.input_schema`);
    }
    const definition: ToolDefinition = { name: tool.name, parameters: schema ?? { type: 'object', properties: {} } };
    if (typeof tool.description === 'string') definition.description = tool.description;
    if (typeof tool.strict === 'boolean') definition.strict = tool.strict;
    const metadata = readCacheControl(tool);
    if (metadata) definition.providerMetadata = metadata;
    tools.push(definition);
  });
  return tools;
}

export interface DecodedToolChoice {
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
}

export function decodeAnthropicToolChoice(raw: unknown): DecodedToolChoice {
  if (raw === undefined || raw === null) return {};
  if (!isRecord(raw)) throw invalidRequest('"tool_choice" must be an object with a "type".', 'tool_choice');
  const decoded: DecodedToolChoice = {};
  switch (raw.type) {
    case 'auto':
      decoded.toolChoice = { type: 'auto' };
      break;
    case 'any':
      decoded.toolChoice = { type: 'required' };
      break;
    case 'none':
      decoded.toolChoice = { type: 'none' };
      break;
    case 'tool':
      if (typeof raw.name !== 'string') {
        throw invalidRequest('tool_choice.name must name a tool when tool_choice.type is "tool".', 'tool_choice.name');
      }
      decoded.toolChoice = { type: 'tool', name: raw.name };
      break;
    default:
      throw invalidRequest('tool_choice.type must be one of "auto", "any", "tool" or "none".', 'tool_choice.type');
  }
  if (typeof raw.disable_parallel_tool_use === 'boolean') {
    decoded.parallelToolCalls = !raw.disable_parallel_tool_use;
  }
  return decoded;
}
