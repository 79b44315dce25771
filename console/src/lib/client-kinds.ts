import {
  CLIENT_KINDS as KINDS,
  clientAddress,
  clientLabel,
  clientModelList,
  type ClientKind,
} from '../../../src/domain/client-kinds.ts';

export type { ClientKind };

/** Copy-ready set-up for one client kind; the kinds, addresses and model lists come from the gateway's own table. */
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

export const CLIENT_KINDS: Array<[ClientKind, string]> = KINDS.map((kind) => [kind, clientLabel(kind)]);

/** `key` is what goes in the text: the real key for the clipboard, a masked one for the screen. */
export function clientSetup(kind: ClientKind, root: string, key: string, model: string, altPrefix: string): ClientSetup {
  const label = clientLabel(kind);
  const address = clientAddress(kind, root, altPrefix);
  const probe = clientModelList(kind, altPrefix);
  switch (kind) {
    case 'openai-sdk':
      return {
        kind,
        label,
        address,
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
        probe,
      };
    case 'openai-http':
      return {
        kind,
        label,
        address,
        addressNote: 'The full endpoint address, with Authorization: Bearer <key>.',
        blocks: [
          [
            'curl',
            `curl ${root}/v1/chat/completions \\\n  -H "Authorization: Bearer ${key}" \\\n  -H "Content-Type: application/json" \\\n  -d '{"model": "${model}", "messages": [{"role": "user", "content": "Hello"}]}'`,
          ],
          ['Model list', `curl ${root}/v1/models -H "Authorization: Bearer ${key}"`],
        ],
        notes: ['Add "stream": true to the body for a streamed reply.'],
        probe,
      };
    case 'claude-code':
      return {
        kind,
        label,
        address,
        addressNote: 'The root address, without /v1; no manual model-list fetch is needed.',
        blocks: [['Environment', `export ANTHROPIC_BASE_URL="${root}"\nexport ANTHROPIC_AUTH_TOKEN="${key}"\nexport ANTHROPIC_MODEL="${model}"\nclaude`]],
        notes: [],
        probe,
      };
    case 'anthropic-sdk':
      return {
        kind,
        label,
        address,
        addressNote: 'The root address, without /v1; the SDK appends /v1/messages itself.',
        blocks: [
          [
            'Python',
            `from anthropic import Anthropic\n\nclient = Anthropic(base_url="${root}", api_key="${key}")\nreply = client.messages.create(\n    model="${model}",\n    max_tokens=1024,\n    messages=[{"role": "user", "content": "Hello"}],\n)\nprint(reply.content[0].text)`,
          ],
          [
            'JavaScript',
            `import Anthropic from '@anthropic-ai/sdk';\n\nconst client = new Anthropic({ baseURL: '${root}', apiKey: '${key}' });\nconst reply = await client.messages.create({\n  model: '${model}',\n  max_tokens: 1024,\n  messages: [{ role: 'user', content: 'Hello' }],\n});\nconsole.log(reply.content[0].text);`,
          ],
        ],
        notes: [],
        probe,
      };
    case 'gemini-cli':
      return {
        kind,
        label,
        address,
        addressNote: 'The root address, not /v1beta (the CLI adds /v1beta itself; with it twice you get a 404).',
        blocks: [
          ['Environment', `export GOOGLE_GEMINI_BASE_URL="${root}"\nexport GEMINI_API_KEY="${key}"\nexport GEMINI_MODEL="${model}"\ngemini`],
          ['~/.gemini/settings.json', JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }, null, 2)],
        ],
        notes: ['The settings.json line makes the CLI use the API key instead of asking you to sign in with Google.'],
        probe,
      };
    case 'genai-sdk':
      return {
        kind,
        label,
        address,
        addressNote: 'The root address, not /v1beta: pass apiVersion "v1beta" separately.',
        blocks: [
          [
            'JavaScript',
            `import { GoogleGenAI } from '@google/genai';\n\nconst ai = new GoogleGenAI({ apiKey: '${key}', httpOptions: { baseUrl: '${root}', apiVersion: 'v1beta' } });\nconst reply = await ai.models.generateContent({ model: '${model}', contents: 'Hello' });\nconsole.log(reply.text);`,
          ],
        ],
        notes: [],
        probe,
      };
    case 'gemini-http':
      return {
        kind,
        label,
        address,
        addressNote: 'Then append the endpoint path, e.g. /models or /models/<model>:generateContent.',
        blocks: [
          [
            'curl',
            `curl "${root}/v1beta/models/${model}:generateContent" \\\n  -H "x-goog-api-key: ${key}" \\\n  -H "Content-Type: application/json" \\\n  -d '{"contents": [{"role": "user", "parts": [{"text": "Hello"}]}]}'`,
          ],
          ['Model list', `curl ${root}/v1beta/models -H "x-goog-api-key: ${key}"`],
        ],
        notes: ['Other tools’ Gemini providers take exactly this address; anything else answers 404 naming it.'],
        probe,
      };
    case 'codex':
      return {
        kind,
        label,
        address,
        addressNote: 'In ~/.codex/config.toml, with wire_api = "responses".',
        blocks: [
          [
            '~/.codex/config.toml',
            `model = "${model}"\nmodel_provider = "switchyard"\n\n[model_providers.switchyard]\nname = "Switchyard"\nbase_url = "${root}/v1"\nenv_key = "SWITCHYARD_API_KEY"\nwire_api = "responses"`,
          ],
          ['Environment', `export SWITCHYARD_API_KEY="${key}"\ncodex`],
        ],
        notes: [],
        probe,
      };
    case 'antigravity':
      return {
        kind,
        label,
        address,
        addressNote: `For OpenAI-style providers; Anthropic-style ones take ${root}/${altPrefix} and Gemini-style ones ${root}/${altPrefix}/v1beta. Bearer key.`,
        blocks: [['Model list', `curl ${root}/${altPrefix}/v1/models -H "Authorization: Bearer ${key}"`]],
        notes: [],
        probe,
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
