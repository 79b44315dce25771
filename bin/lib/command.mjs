/**
 * The shape of a command, for editors and `// @ts-check`; nothing here runs.
 *
 * @typedef {{ request: (method: string, path: string, body?: unknown) => Promise<any>, url: string }} AdminClient
 * @typedef {{ client: AdminClient, values: Record<string, any>, positionals: string[] }} CommandContext
 * @typedef {{ json: unknown, text: string, exitCode?: number }} CommandResult
 * @typedef {{
 *   usage: string,
 *   summary: string,
 *   options: Record<string, { type: 'string' | 'boolean', short?: string, multiple?: boolean }>,
 *   run: (context: CommandContext) => Promise<CommandResult>,
 * }} Verb
 * @typedef {{ summary: string, verbs: Record<string, Verb> }} Noun
 */
export {};
