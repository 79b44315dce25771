import type { RecordedRequest } from '../simulator/recorded-request.ts';

type Json = Record<string, any>;

/** The tools a request offers, as name + JSON schema, whatever the wire. */
export function offeredTools(request: RecordedRequest): Array<{ name: string; schema: Json }> {
  const body = request.body as Json;
  // Bedrock Converse lists them under toolConfig, each as a toolSpec.
  const tools: Json[] = Array.isArray(body?.tools) ? body.tools : Array.isArray(body?.toolConfig?.tools) ? body.toolConfig.tools : [];
  return tools.flatMap((tool) => {
    if (Array.isArray(tool.functionDeclarations)) {
      return tool.functionDeclarations.map((declaration: Json) => ({
        name: declaration.name,
        schema: declaration.parameters ?? declaration.parametersJsonSchema ?? {},
      }));
    }
    if (tool.type === 'function' && tool.function) return [{ name: tool.function.name, schema: tool.function.parameters ?? {} }];
    if (typeof tool.name === 'string') return [{ name: tool.name, schema: tool.input_schema ?? tool.parameters ?? {} }];
    if (tool.toolSpec) return [{ name: tool.toolSpec.name, schema: tool.toolSpec.inputSchema?.json ?? {} }];
    return [];
  });
}

const READERS = ['Read', 'read_file', 'shell_command', 'shell', 'exec_command'];

/** A call to the CLI's own file-reading tool, with arguments shaped from its schema. */
export function readCall(tools: Array<{ name: string; schema: Json }>, file: string): { name: string; arguments: Json } | undefined {
  const tool = READERS.map((name) => tools.find((candidate) => candidate.name === name)).find(Boolean);
  if (!tool) return undefined;
  const args: Json = {};
  const properties: Json = tool.schema.properties ?? {};
  for (const name of tool.schema.required ?? Object.keys(properties)) {
    const type = properties[name]?.type;
    if (/path/i.test(name)) args[name] = file;
    else if (name === 'command') args[name] = type === 'array' ? ['cat', file] : `cat ${file}`;
    else if (name === 'cmd') args[name] = `cat ${file}`;
  }
  return { name: tool.name, arguments: args };
}
