import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { requireTestClients, runCli, type CliRun } from '../helpers/run-cli.ts';
import { offeredTools, readCall } from '../helpers/cli-tool-calls.ts';

/**
 * The real CLIs (versions pinned in test/clients/package-lock.json) in a two-step tool loop against the strict
 * simulator: the model thinks and asks to read a file, the CLI runs its own tool, and the turn
 * carrying the result must be accepted by an upstream that checks its reasoning state
 * (Anthropic with thinking on, Gemini 3 thought signatures, OpenAI Responses encrypted
 * reasoning with store:false). Each run must exit 0 with the answer built from the file.
 */
requireTestClients();
const SECRET = 'ZEBRA-7731';
const ANSWER = `The notes file says ${SECRET}.`;

const UPSTREAMS = [
  { name: 'anthropic', provider: 'anthropic', upstreamModel: 'claude-sonnet-4-6', supportsResponses: false },
  { name: 'gemini-3', provider: 'gemini', upstreamModel: 'gemini-3-pro-preview', supportsResponses: false },
  { name: 'openai-responses', provider: 'openai', upstreamModel: 'gpt-5', supportsResponses: true },
] as const;

// Public names each CLI recognises as a reasoning model, so it asks for reasoning on its own.
const CLI_MODELS = { claude: 'claude-sonnet-4-6', gemini: 'gemini-3-pro-preview', codex: 'gpt-5' } as const;
// Gemini CLI resolves its aliases to the newest preview before calling.
const CHANNEL_MODELS = [...Object.values(CLI_MODELS), 'gemini-3.1-pro-preview'];

function run(command: string, args: string[], env: Record<string, string>, cwd: string) {
  return runCli(command, args, env, cwd, 180_000);
}

type Json = Record<string, any>;

describe('real CLIs: two-step tool loop with reasoning state (strict simulator)', { concurrency: false }, () => {
  let harness: Harness;
  let home: string;
  const keys = new Map<string, string>();

  before(async () => {
    harness = await startHarness();
    for (const upstream of UPSTREAMS) {
      // One group per upstream, so every CLI's own model name can mean each upstream in turn.
      await harness.admin('POST', '/groups', { name: `loop-${upstream.name}` }, 201);
      await harness.addChannel({
        provider: upstream.provider,
        models: CHANNEL_MODELS,
        modelMap: Object.fromEntries(CHANNEL_MODELS.map((model) => [model, upstream.upstreamModel])),
        supportsResponses: upstream.supportsResponses,
        groups: [`loop-${upstream.name}`],
      });
      keys.set(upstream.name, (await harness.addKey({ group: `loop-${upstream.name}` })).key);
    }
    home = mkdtempSync(join(tmpdir(), 'switchyard-cli-loop-'));
    // The model's side of the loop: ask for the file until its content comes back, then answer.
    harness.simulator.onRequest((request) => {
      if (request.endpoint !== 'generate') return;
      if (request.rawBody.includes(SECRET)) {
        harness.simulator.enqueue({ reasoning: { text: 'The tool returned the file; answer with it.' }, text: ANSWER });
        return;
      }
      const file = /(\/[^\s"\\]*notes\.txt)/.exec(request.rawBody)?.[1] ?? join(home, 'missing', 'notes.txt');
      const call = readCall(offeredTools(request), file);
      harness.simulator.enqueue(call ? { reasoning: { text: 'I should read notes.txt before answering.' }, toolCalls: [call] } : { text: 'ok' });
    });
  });
  after(async () => {
    await harness?.close();
    rmSync(home, { recursive: true, force: true });
  });

  const workspace = (name: string) => {
    const directory = join(home, name);
    mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, 'notes.txt'), `${SECRET}\n`);
    return directory;
  };
  const assertLoop = (result: CliRun, name: string, since: number) => {
    const requests = harness.simulator.requests.slice(since).filter((request) => request.endpoint === 'generate');
    const loop = requests.filter((request) => request.rawBody.includes(SECRET));
    assert.equal(result.code, 0, `${name} exited ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr.slice(-3000)}`);
    assert.ok(loop.length > 0, `${name}: the tool result never reached the upstream (${requests.length} requests)`);
    assert.match(result.stdout, new RegExp(SECRET), `${name} printed the final answer`);
    return loop.map((request) => request.body as Json);
  };
  /** The upstream got back the reasoning state it issued, not a fallback. */
  const assertStateCarried = (upstream: (typeof UPSTREAMS)[number], bodies: Json[], name: string) => {
    const body = bodies[0]!;
    const text = JSON.stringify(body);
    switch (upstream.name) {
      case 'anthropic': {
        assert.match(String(body.thinking?.type), /^(enabled|adaptive)$/, `${name}: thinking on`);
        const assistant = body.messages.at(-2);
        assert.equal(assistant.role, 'assistant');
        assert.equal(assistant.content[0].type, 'thinking', `${name}: the assistant turn starts with the signed thinking block`);
        break;
      }
      case 'gemini-3': {
        const model = [...body.contents].reverse().find((content: Json) => content.role === 'model');
        const call = model.parts.find((part: Json) => part.functionCall);
        assert.ok(call.thoughtSignature && call.thoughtSignature !== 'skip_thought_signature_validator', `${name}: Gemini's own signature is back on the call`);
        break;
      }
      case 'openai-responses':
        assert.equal(body.store, false);
        assert.ok(
          body.input.some((item: Json) => item.type === 'reasoning' && typeof item.encrypted_content === 'string'),
          `${name}: encrypted reasoning is back`,
        );
        break;
      default:
        throw new Error(`unknown upstream ${JSON.stringify(upstream)}`);
    }
    assert.doesNotMatch(text, /U1lSA/, `${name}: no envelope reaches the upstream`);
  };

  for (const upstream of UPSTREAMS) {
    test(`claude -p: tool loop on ${upstream.name}`, async () => {
      const directory = workspace(`claude-${upstream.name}`);
      const since = harness.simulator.requests.length;
      const result = await run(
        'claude',
        ['-p', `Read ${join(directory, 'notes.txt')} and tell me what it says.`, '--allowedTools', 'Read'],
        {
          HOME: directory,
          ANTHROPIC_BASE_URL: harness.url,
          ANTHROPIC_AUTH_TOKEN: keys.get(upstream.name)!,
          ANTHROPIC_MODEL: CLI_MODELS.claude,
          ANTHROPIC_SMALL_FAST_MODEL: CLI_MODELS.claude,
          MAX_THINKING_TOKENS: '2048',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_AUTOUPDATER: '1',
        },
        directory,
      );
      assertStateCarried(upstream, assertLoop(result, 'claude', since), 'claude');
    });

    test(`gemini -p: tool loop on ${upstream.name}`, async () => {
      const directory = workspace(`gemini-${upstream.name}`);
      mkdirSync(join(directory, '.gemini'), { recursive: true });
      writeFileSync(join(directory, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }));
      const since = harness.simulator.requests.length;
      const result = await run(
        'gemini',
        ['-p', `Read ${join(directory, 'notes.txt')} and tell me what it says.`, '--yolo'],
        {
          HOME: directory,
          GEMINI_CLI_TRUST_WORKSPACE: 'true',
          GOOGLE_GEMINI_BASE_URL: harness.url,
          GEMINI_API_KEY: keys.get(upstream.name)!,
          GEMINI_MODEL: CLI_MODELS.gemini,
        },
        directory,
      );
      assertStateCarried(upstream, assertLoop(result, 'gemini', since), 'gemini');
    });

    test(`codex exec: tool loop on ${upstream.name}`, async () => {
      const directory = workspace(`codex-${upstream.name}`);
      mkdirSync(join(directory, '.codex'), { recursive: true });
      writeFileSync(
        join(directory, '.codex', 'config.toml'),
        [
          `model = "${CLI_MODELS.codex}"`,
          'model_provider = "switchyard"',
          'model_reasoning_effort = "high"',
          '[model_providers.switchyard]',
          'name = "switchyard"',
          `base_url = "${harness.url}/v1"`,
          'env_key = "SWITCHYARD_API_KEY"',
          'wire_api = "responses"',
          'request_max_retries = 0',
          'stream_max_retries = 0',
        ].join('\n'),
      );
      const since = harness.simulator.requests.length;
      const result = await run(
        'codex',
        ['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', `Read ${join(directory, 'notes.txt')} and tell me what it says.`],
        { HOME: directory, CODEX_HOME: join(directory, '.codex'), SWITCHYARD_API_KEY: keys.get(upstream.name)! },
        directory,
      );
      assertStateCarried(upstream, assertLoop(result, 'codex', since), 'codex');
    });
  }
});
