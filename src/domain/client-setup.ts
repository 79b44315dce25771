import { clientAddress, clientLabel, clientModelList, clientProtocol, type ClientKind, type ClientProtocol } from './client-kinds.ts';

/**
 * How to set up each client kind: the one source of the advice the gateway gives (`/api/diagnose`,
 * through `src/access/client-kinds.ts`) and the copy-ready snippets the console shows ("Connect a
 * client", the model check). The console imports this file by relative path, so it imports
 * nothing but `client-kinds.ts` (itself import-free) and type-checks in a browser setting.
 */
export interface ClientSetup {
  kind: ClientKind;
  label: string;
  protocol: ClientProtocol;
  /** What to type into the client's "base URL" box. */
  address: string;
  /** Why that address, in a sentence shown under it. */
  addressNote: string;
  /** Where the key goes. */
  credential: string;
  /** The path-prefix surface the client reaches, or null for the root surfaces. */
  surface: string | null;
  /** How to configure it, one sentence (the diagnose answer). */
  advice: string;
  /** Copy-ready blocks: [title, text]. */
  blocks: Array<[string, string]>;
  notes: string[];
  /** The model list this client kind reads, for a live check: path and how the key is sent. */
  probe: { path: string; header: 'bearer' | 'x-goog-api-key' | 'x-api-key' };
}

export interface ClientSetupInput {
  /** The gateway's root address, e.g. `http://127.0.0.1:8080`. */
  root: string;
  altPrefix: string;
  model: string;
  /** What goes in the snippets: the real key for a clipboard, a masked one for a screen. */
  key?: string;
}

type KindSetup = Pick<ClientSetup, 'addressNote' | 'credential' | 'advice' | 'blocks' | 'notes'>;

/** Copy-ready set-up for one client kind at this gateway. */
export function clientSetup(kind: ClientKind, input: ClientSetupInput): ClientSetup {
  const { root, altPrefix } = input;
  return {
    kind,
    label: clientLabel(kind),
    protocol: clientProtocol(kind),
    address: clientAddress(kind, root, altPrefix),
    surface: kind === 'antigravity' ? altPrefix : null,
    probe: clientModelList(kind, altPrefix),
    ...kindSetup(kind, { ...input, key: input.key ?? '<API_KEY>' }),
  };
}

function kindSetup(kind: ClientKind, { root, altPrefix, model, key }: Required<ClientSetupInput>): KindSetup {
  switch (kind) {
    case 'openai-sdk':
      return {
        addressNote: 'The client appends /chat/completions itself; do not enter /models or /chat/completions.',
        credential: 'Authorization: Bearer <API_KEY>',
        advice: `Set the SDK's base URL (OPENAI_BASE_URL / baseURL) to ${root}/v1; the SDK appends /chat/completions itself, so do not enter /chat/completions or /models.`,
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
      };
    case 'openai-http':
      return {
        addressNote: 'The full endpoint address, with Authorization: Bearer <key>.',
        credential: 'Authorization: Bearer <API_KEY>',
        advice: `POST the JSON body to ${root}/v1/chat/completions with Content-Type: application/json and "model": "${model}".`,
        blocks: [
          [
            'curl',
            `curl ${root}/v1/chat/completions \\\n  -H "Authorization: Bearer ${key}" \\\n  -H "Content-Type: application/json" \\\n  -d '{"model": "${model}", "messages": [{"role": "user", "content": "Hello"}]}'`,
          ],
          ['Model list', `curl ${root}/v1/models -H "Authorization: Bearer ${key}"`],
        ],
        notes: ['Add "stream": true to the body for a streamed reply.'],
      };
    case 'claude-code':
      return {
        addressNote: 'The root address, without /v1; no manual model-list fetch is needed.',
        credential: 'x-api-key: <API_KEY> (ANTHROPIC_API_KEY) or Authorization: Bearer <API_KEY> (ANTHROPIC_AUTH_TOKEN)',
        advice: `Set ANTHROPIC_BASE_URL=${root} (the root, without /v1) and ANTHROPIC_MODEL=${model}; no manual model-list fetch is needed.`,
        blocks: [['Environment', `export ANTHROPIC_BASE_URL="${root}"\nexport ANTHROPIC_AUTH_TOKEN="${key}"\nexport ANTHROPIC_MODEL="${model}"\nclaude`]],
        notes: [],
      };
    case 'anthropic-sdk':
      return {
        addressNote: 'The root address, without /v1; the SDK appends /v1/messages itself.',
        credential: 'x-api-key: <API_KEY>',
        advice: `Set the SDK's baseURL to ${root} (the root, without /v1); it appends /v1/messages itself.`,
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
      };
    case 'gemini-cli':
      return {
        addressNote: 'The root address, not /v1beta (the CLI adds /v1beta itself; with it twice you get a 404).',
        credential: 'x-goog-api-key: <API_KEY> (GEMINI_API_KEY)',
        advice: `Set GOOGLE_GEMINI_BASE_URL=${root} (the root, not /v1beta), GEMINI_API_KEY=<API_KEY> and GEMINI_MODEL=${model}.`,
        blocks: [
          ['Environment', `export GOOGLE_GEMINI_BASE_URL="${root}"\nexport GEMINI_API_KEY="${key}"\nexport GEMINI_MODEL="${model}"\ngemini`],
          ['~/.gemini/settings.json', JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }, null, 2)],
        ],
        notes: ['The settings.json line makes the CLI use the API key instead of asking you to sign in with Google.'],
      };
    case 'genai-sdk':
      return {
        addressNote: 'The root address, not /v1beta: the SDKs add the API version (v1beta) themselves.',
        credential: 'x-goog-api-key: <API_KEY>',
        advice: `Pass the root address, not /v1beta: httpOptions: { baseUrl: "${root}", apiVersion: "v1beta" } in @google/genai, http_options={"base_url": "${root}"} in Python's google-genai.`,
        blocks: [
          [
            'Python (google-genai)',
            `from google import genai\n\nclient = genai.Client(api_key="${key}", http_options={"base_url": "${root}"})\nreply = client.models.generate_content(model="${model}", contents="Hello")\nprint(reply.text)`,
          ],
          [
            'JavaScript (@google/genai)',
            `import { GoogleGenAI } from '@google/genai';\n\nconst ai = new GoogleGenAI({ apiKey: '${key}', httpOptions: { baseUrl: '${root}', apiVersion: 'v1beta' } });\nconst reply = await ai.models.generateContent({ model: '${model}', contents: 'Hello' });\nconsole.log(reply.text);`,
          ],
        ],
        notes: ['Python: pip install google-genai; it calls v1beta by default, so only base_url is needed.'],
      };
    case 'gemini-http':
      return {
        addressNote: 'Then append the endpoint path, e.g. /models or /models/<model>:generateContent.',
        credential: 'x-goog-api-key: <API_KEY>',
        advice: `Use ${root}/v1beta and append the endpoint path, e.g. POST ${root}/v1beta/models/${encodeURIComponent(model)}:generateContent or GET ${root}/v1beta/models.`,
        blocks: [
          [
            'curl',
            `curl "${root}/v1beta/models/${model}:generateContent" \\\n  -H "x-goog-api-key: ${key}" \\\n  -H "Content-Type: application/json" \\\n  -d '{"contents": [{"role": "user", "parts": [{"text": "Hello"}]}]}'`,
          ],
          ['Model list', `curl ${root}/v1beta/models -H "x-goog-api-key: ${key}"`],
        ],
        notes: ['Other tools’ Gemini providers take exactly this address; anything else answers 404 naming it.'],
      };
    case 'codex':
      return {
        addressNote: 'In ~/.codex/config.toml: openai_base_url (the built-in provider), or a provider with wire_api = "responses".',
        credential: 'Authorization: Bearer <API_KEY>',
        // Both recipes: Codex's own provider (OpenAI's documented way to point it at a proxy: WebSocket
        // turns, remote compaction) and a custom provider (plain HTTP). The built-in provider reads its
        // key from CODEX_API_KEY or `codex login --with-api-key`, never from OPENAI_API_KEY.
        advice: `Either set openai_base_url = "${root}/v1" in ~/.codex/config.toml (the built-in provider; give the key with \`printenv SWITCHYARD_KEY | codex login --with-api-key\` or CODEX_API_KEY=<API_KEY>, not OPENAI_API_KEY), or add a provider with base_url = "${root}/v1", env_key and wire_api = "responses"; Codex appends /responses and /models.`,
        blocks: [
          ['~/.codex/config.toml (built-in provider: Responses over WebSocket)', `model = "${model}"\nopenai_base_url = "${root}/v1"`],
          [
            'Key for the built-in provider',
            `printenv SWITCHYARD_API_KEY | codex login --with-api-key\n# or: export CODEX_API_KEY="${key}" (not OPENAI_API_KEY)`,
          ],
          [
            '~/.codex/config.toml (custom provider: plain HTTP)',
            `model = "${model}"\nmodel_provider = "switchyard"\n\n[model_providers.switchyard]\nname = "Switchyard"\nbase_url = "${root}/v1"\nenv_key = "SWITCHYARD_API_KEY"\nwire_api = "responses"`,
          ],
          ['Environment (custom provider)', `export SWITCHYARD_API_KEY="${key}"\ncodex`],
        ],
        notes: [],
      };
    case 'antigravity':
      return {
        addressNote: `For OpenAI-style providers; Anthropic-style ones take ${root}/${altPrefix} and Gemini-style ones ${root}/${altPrefix}/v1beta. Bearer key.`,
        credential: 'Authorization: Bearer <API_KEY>',
        advice: `Use the alternative-client prefix: ${root}/${altPrefix}/v1 for OpenAI-style providers (its model list is ${root}/${altPrefix}/v1/models), ${root}/${altPrefix} for Anthropic-style and ${root}/${altPrefix}/v1beta for Gemini-style ones.`,
        blocks: [['Model list', `curl ${root}/${altPrefix}/v1/models -H "Authorization: Bearer ${key}"`]],
        notes: [],
      };
    default: {
      const unreachable: never = kind;
      throw new Error(`unknown client kind ${String(unreachable)}`);
    }
  }
}
