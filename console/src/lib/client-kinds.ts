/** The specification's base-address table, one entry per client kind, with copy-ready set-up. */
export type ClientKind = 'openai-sdk' | 'openai-http' | 'claude-code' | 'gemini-cli' | 'gemini-http' | 'codex' | 'antigravity';

export interface ClientSetup {
  kind: ClientKind;
  label: string;
  /** What to type into the client's "base URL" box. */
  address: string;
  addressNote: string;
  /** Copy-ready blocks: [title, text]. */
  blocks: Array<[string, string]>;
  notes: string[];
  /** The model list this client kind reads, for the live check: path and how the key is sent. */
  probe: { path: string; header: 'bearer' | 'x-goog-api-key' | 'x-api-key' };
}

export const CLIENT_KINDS: Array<[ClientKind, string]> = [
  ['openai-sdk', 'OpenAI SDK or chat-completions client'],
  ['openai-http', 'Raw HTTP chat completions'],
  ['claude-code', 'Claude Code (and the Anthropic SDK)'],
  ['gemini-cli', 'Gemini CLI'],
  ['gemini-http', 'Raw Gemini HTTP and other tools’ Gemini providers'],
  ['codex', 'Codex CLI (Responses API)'],
  ['antigravity', 'Alternative clients (path prefix)'],
];

/** `key` is what goes in the text: the real key for the clipboard, a masked one for the screen. */
export function clientSetup(kind: ClientKind, root: string, key: string, model: string, altPrefix: string): ClientSetup {
  const label = CLIENT_KINDS.find(([id]) => id === kind)![1];
  switch (kind) {
    case 'openai-sdk':
      return {
        kind,
        label,
        address: `${root}/v1`,
        addressNote: 'The client appends /chat/completions itself; do not enter /models or /chat/completions.',
        blocks: [
          ['Environment', `export OPENAI_BASE_URL="${root}/v1"\nexport OPENAI_API_KEY="${key}"`],
          [
            'Python',
            `from openai import OpenAI\n\nclient = OpenAI(base_url="${root}/v1", api_key="${key}")\nreply = client.chat.completions.create(\n    model="${model}",\n    messages=[{"role": "user", "content": "Hello"}],\n)\nprint(reply.choices[0].message.content)`,
          ],
          [
            'JavaScript',
            `import OpenAI from 'openai';\n\nconst client = new OpenAI({ baseURL: '${root}/v1', apiKey: '${key}' });\nconst reply = await client.chat.completions.create({\n  model: '${model}',\n  messages: [{ role: 'user', content: 'Hello' }],\n});\nconsole.log(reply.choices[0].message.content);`,
          ],
        ],
        notes: [],
        probe: { path: '/v1/models', header: 'bearer' },
      };
    case 'openai-http':
      return {
        kind,
        label,
        address: `${root}/v1/chat/completions`,
        addressNote: 'The full endpoint address, with Authorization: Bearer <key>.',
        blocks: [
          [
            'curl',
            `curl ${root}/v1/chat/completions \\\n  -H "Authorization: Bearer ${key}" \\\n  -H "Content-Type: application/json" \\\n  -d '{"model": "${model}", "messages": [{"role": "user", "content": "Hello"}]}'`,
          ],
          ['Model list', `curl ${root}/v1/models -H "Authorization: Bearer ${key}"`],
        ],
        notes: ['Add "stream": true to the body for a streamed reply.'],
        probe: { path: '/v1/models', header: 'bearer' },
      };
    case 'claude-code':
      return {
        kind,
        label,
        address: root,
        addressNote: 'The root address, without /v1; no manual model-list fetch is needed.',
        blocks: [['Environment', `export ANTHROPIC_BASE_URL="${root}"\nexport ANTHROPIC_AUTH_TOKEN="${key}"\nexport ANTHROPIC_MODEL="${model}"\nclaude`]],
        notes: ['The Anthropic SDK takes the same root as base_url.'],
        probe: { path: '/v1/models', header: 'bearer' },
      };
    case 'gemini-cli':
      return {
        kind,
        label,
        address: root,
        addressNote: 'The root address, not /v1beta (the CLI adds /v1beta itself; with it twice you get a 404).',
        blocks: [
          ['Environment', `export GOOGLE_GEMINI_BASE_URL="${root}"\nexport GEMINI_API_KEY="${key}"\nexport GEMINI_MODEL="${model}"\ngemini`],
          ['~/.gemini/settings.json', JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }, null, 2)],
        ],
        notes: ['The settings.json line makes the CLI use the API key instead of asking you to sign in with Google.'],
        probe: { path: '/v1beta/models', header: 'x-goog-api-key' },
      };
    case 'gemini-http':
      return {
        kind,
        label,
        address: `${root}/v1beta`,
        addressNote: 'Then append the endpoint path, e.g. /models or /models/<model>:generateContent.',
        blocks: [
          [
            'curl',
            `curl "${root}/v1beta/models/${model}:generateContent" \\\n  -H "x-goog-api-key: ${key}" \\\n  -H "Content-Type: application/json" \\\n  -d '{"contents": [{"role": "user", "parts": [{"text": "Hello"}]}]}'`,
          ],
          ['Model list', `curl ${root}/v1beta/models -H "x-goog-api-key: ${key}"`],
        ],
        notes: ['Other tools’ Gemini providers take exactly this address; anything else answers 404 naming it.'],
        probe: { path: '/v1beta/models', header: 'x-goog-api-key' },
      };
    case 'codex':
      return {
        kind,
        label,
        address: `${root}/v1`,
        addressNote: 'In ~/.codex/config.toml, with wire_api = "responses".',
        blocks: [
          [
            '~/.codex/config.toml',
            `model = "${model}"\nmodel_provider = "switchyard"\n\n[model_providers.switchyard]\nname = "Switchyard"\nbase_url = "${root}/v1"\nenv_key = "SWITCHYARD_API_KEY"\nwire_api = "responses"`,
          ],
          ['Environment', `export SWITCHYARD_API_KEY="${key}"\ncodex`],
        ],
        notes: [],
        probe: { path: '/v1/models', header: 'bearer' },
      };
    case 'antigravity':
      return {
        kind,
        label,
        address: `${root}/${altPrefix}`,
        addressNote: `Everything under /${altPrefix}: /${altPrefix}/v1/models, /${altPrefix}/v1/messages, /${altPrefix}/v1beta/models/…; Bearer key.`,
        blocks: [['Model list', `curl ${root}/${altPrefix}/v1/models -H "Authorization: Bearer ${key}"`]],
        notes: [],
        probe: { path: `/${altPrefix}/v1/models`, header: 'bearer' },
      };
    default: {
      const unreachable: never = kind;
      throw new Error(`unknown client kind ${String(unreachable)}`);
    }
  }
}

/** Enough of a key to recognise it, never enough to use it. */
export function maskKey(key: string): string {
  return key.length <= 12 ? '••••••••' : `${key.slice(0, 6)}…${key.slice(-4)}`;
}
