import type { ToolChoice, ToolDefinition } from '../../core/chat-request.ts';
import { invalidRequest } from '../../core/gateway-error.ts';
import type { Warning } from '../../core/warning.ts';
import { isRecord } from '../shared/is-record.ts';
import { convertGeminiSchema } from './convert-gemini-schema.ts';

/**
 * `tools[].functionDeclarations` → canonical tools. `parametersJsonSchema` is already JSON
 * Schema (Gemini CLI sends it) and passes untouched; `parameters` is Gemini's OpenAPI subset
 * and gets converted. Built-in tools (Google Search, code execution, URL context) run inside
 * Google and have no equivalent elsewhere, so they become warnings.
 */
export function decodeGeminiTools(tools: unknown, warnings: Warning[]): ToolDefinition[] {
  if (tools === undefined || tools === null) return [];
  if (!Array.isArray(tools)) throw invalidRequest('`tools` must be an array of Tool objects.', 'tools');
  const definitions: ToolDefinition[] = [];
  tools.forEach((tool, i) => {
    if (!isRecord(tool)) throw invalidRequest(`\`tools[${i}]\` must be an object.`, `tools[${i}]`);
    for (const [key, value] of Object.entries(tool)) {
      if (key !== 'functionDeclarations') {
        warnings.push({ type: 'unsupported', feature: `tools.${key}` });
        continue;
      }
      if (!Array.isArray(value)) {
        throw invalidRequest(`\`tools[${i}].functionDeclarations\` must be an array.`, `tools[${i}].functionDeclarations`);
      }
      value.forEach((declaration, j) => definitions.push(decodeDeclaration(declaration, `tools[${i}].functionDeclarations[${j}]`)));
    }
  });
  return definitions;
}

function decodeDeclaration(declaration: unknown, path: string): ToolDefinition {
  if (!isRecord(declaration)) throw invalidRequest(`\`${path}\` must be an object.`, path);
  if (typeof declaration.name !== 'string' || declaration.name === '') {
    throw invalidRequest(`\`${path}.name\` must be a non-empty string.`, `${path}.name`);
  }
  let parameters: Record<string, unknown>;
  if (isRecord(declaration.parametersJsonSchema)) parameters = declaration.parametersJsonSchema;
  else if (isRecord(declaration.parameters)) parameters = convertGeminiSchema(declaration.parameters);
  else parameters = { type: 'object', properties: {} };
  return {
    name: declaration.name,
    ...(typeof declaration.description === 'string' ? { description: declaration.description } : {}),
    parameters,
  };
}

/** `toolConfig.functionCallingConfig` → canonical tool choice. */
export function decodeGeminiToolConfig(toolConfig: unknown, warnings: Warning[]): ToolChoice | undefined {
  if (!isRecord(toolConfig)) return undefined;
  const config = toolConfig.functionCallingConfig;
  if (!isRecord(config)) return undefined;
  const allowed = Array.isArray(config.allowedFunctionNames) ? config.allowedFunctionNames.filter((name): name is string => typeof name === 'string') : [];
  switch (config.mode) {
    case 'AUTO':
      return { type: 'auto' };
    case 'NONE':
      return { type: 'none' };
    case 'ANY': {
      const only = allowed.length === 1 ? allowed[0] : undefined;
      if (only !== undefined) return { type: 'tool', name: only };
      if (allowed.length > 1) {
        warnings.push({ type: 'unsupported', feature: 'toolConfig.allowedFunctionNames', detail: 'any declared tool may be called' });
      }
      return { type: 'required' };
    }
    case 'VALIDATED':
      warnings.push({ type: 'compatibility', feature: 'toolConfig.mode', detail: 'VALIDATED is sent as AUTO' });
      return { type: 'auto' };
    default:
      return undefined;
  }
}
