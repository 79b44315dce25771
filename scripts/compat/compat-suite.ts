import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Harness } from '../../test/helpers/gateway-harness.ts';
import { runCli, type CliRun } from '../../test/helpers/run-cli.ts';
import type { ClientInstall } from './compat-clients.ts';

/** The agentic suite every client runs on every upstream kind, in order. */
export const STEPS = ['plain turn', 'tool loop (reasoning on)', 'compaction'] as const;
export type Step = (typeof STEPS)[number];

export interface StepResult {
  step: Step;
  passed: boolean;
  /** Why it failed: the exit code and the last meaningful line the client printed. */
  detail?: string;
}

export const REPLY = 'Pong from the provider simulator.';
export const SECRET = 'ZEBRA-7731';
/** What each client's compaction request says, so the simulator can answer it and the suite can see it. */
export const COMPACTION_MARKERS = {
  // The gateway's own prompt: Codex compacts remotely (compaction_trigger, or /v1/responses/compact).
  codex: 'CONTEXT CHECKPOINT COMPACTION',
  claude: 'detailed summary of the conversation so far',
  gemini: 'state_snapshot',
} as const;

/** Model names each CLI treats as a reasoning model, so it asks for reasoning on its own. */
export const CLI_MODELS = { claude: 'claude-sonnet-4-6', gemini: 'gemini-3-pro-preview', codex: 'gpt-5' } as const;

const TIMEOUT_MS = 180_000;

/**
 * Runs the three steps for one client install against one key (whose group routes every CLI
 * model name to one upstream kind). Each step is a fresh home directory; a step that fails does
 * not stop the next.
 */
export async function runSuite(harness: Harness, install: ClientInstall, key: string, home: string): Promise<StepResult[]> {
  const results: StepResult[] = [];
  for (const step of STEPS) {
    const directory = join(home, `${install.client}-${install.version}-${results.length}`);
    mkdirSync(directory, { recursive: true });
    try {
      results.push(await runStep(harness, install, key, directory, step));
    } catch (error) {
      results.push({ step, passed: false, detail: error instanceof Error ? error.message : String(error) });
    }
  }
  return results;
}

async function runStep(harness: Harness, install: ClientInstall, key: string, directory: string, step: Step): Promise<StepResult> {
  const client = clientRunner(harness, install, key, directory);
  const since = harness.simulator.requests.length;
  const upstreamSaw = (text: string) => harness.simulator.requests.slice(since).some((request) => request.rawBody.includes(text));
  switch (step) {
    case 'plain turn': {
      const run = await client.prompt('Reply with pong.');
      return verdict(step, run, run.code === 0 && run.stdout.includes(REPLY));
    }
    case 'tool loop (reasoning on)': {
      writeFileSync(join(directory, 'notes.txt'), `${SECRET}\n`);
      const run = await client.prompt(`Read ${join(directory, 'notes.txt')} and tell me what it says.`);
      return verdict(
        step,
        run,
        run.code === 0 && run.stdout.includes(SECRET) && upstreamSaw(SECRET),
        'the tool result never reached the upstream or the answer was not printed',
      );
    }
    case 'compaction': {
      const first = await client.prompt('Reply with pong.');
      if (first.code !== 0) return verdict(step, first, false);
      const second = await client.compact();
      // On an OpenAI Responses upstream the gateway passes compaction to its /v1/responses/compact.
      const compacted =
        upstreamSaw(COMPACTION_MARKERS[install.client]) || harness.simulator.requests.slice(since).some((request) => request.endpoint === 'compact');
      return verdict(step, second, second.code === 0 && compacted, 'no compaction request reached the upstream');
    }
    default: {
      const unreachable: never = step;
      return unreachable;
    }
  }
}

function verdict(step: Step, run: CliRun, passed: boolean, why = ''): StepResult {
  if (passed) return { step, passed };
  const lines = `${run.stderr}\n${run.stdout}`
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /error|fail|refus|invalid|denied|\b[45]\d\d\b/i.test(line) && !/^at /.test(line));
  const last = lines.at(-1) ?? run.stdout.trim().split('\n').at(-1) ?? '';
  return { step, passed, detail: `exit ${run.code}${why && run.code === 0 ? `; ${why}` : ''}${last ? `: ${last.slice(0, 240)}` : ''}` };
}

/** How to drive each CLI non-interactively (stdin closed), and how to make it compact. */
function clientRunner(
  harness: Harness,
  install: ClientInstall,
  key: string,
  directory: string,
): { prompt(text: string): Promise<CliRun>; compact(): Promise<CliRun> } {
  const run = (args: string[], env: Record<string, string>) => runCli(install.client, args, env, directory, TIMEOUT_MS, install.binDir);
  switch (install.client) {
    case 'claude': {
      const env = {
        HOME: directory,
        ANTHROPIC_BASE_URL: harness.url,
        ANTHROPIC_AUTH_TOKEN: key,
        ANTHROPIC_MODEL: CLI_MODELS.claude,
        ANTHROPIC_SMALL_FAST_MODEL: CLI_MODELS.claude,
        MAX_THINKING_TOKENS: '2048',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
      };
      return {
        prompt: (text) => run(['-p', text, '--allowedTools', 'Read'], env),
        compact: () => run(['-p', '--continue', '/compact'], env),
      };
    }
    case 'codex': {
      // The built-in provider pointed at the gateway, as OpenAI documents for a proxy: WebSocket
      // turns, remote compaction (a tiny auto-compact limit makes the resumed turn compact first).
      mkdirSync(join(directory, '.codex'), { recursive: true });
      writeFileSync(
        join(directory, '.codex', 'config.toml'),
        [`model = "${CLI_MODELS.codex}"`, `openai_base_url = "${harness.url}/v1"`, 'model_reasoning_effort = "high"'].join('\n'),
      );
      const env = { HOME: directory, CODEX_HOME: join(directory, '.codex'), CODEX_API_KEY: key };
      return {
        prompt: (text) => run(['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', text], env),
        compact: () =>
          run(
            [
              'exec',
              '--skip-git-repo-check',
              '--dangerously-bypass-approvals-and-sandbox',
              '-c',
              'model_auto_compact_token_limit=500',
              'resume',
              '--last',
              'Reply with pong again.',
            ],
            env,
          ),
      };
    }
    case 'gemini': {
      // A tiny compression threshold: the resumed session compresses its history first.
      mkdirSync(join(directory, '.gemini'), { recursive: true });
      writeFileSync(
        join(directory, '.gemini', 'settings.json'),
        JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, model: { compressionThreshold: 0.0001 } }),
      );
      const env = {
        HOME: directory,
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
        GOOGLE_GEMINI_BASE_URL: harness.url,
        GEMINI_API_KEY: key,
        GEMINI_MODEL: CLI_MODELS.gemini,
      };
      return {
        prompt: (text) => run(['-p', text, '--yolo'], env),
        compact: () => run(['--resume', 'latest', '-p', 'Reply with pong again.', '--yolo'], env),
      };
    }
    default: {
      const unreachable: never = install.client;
      return unreachable;
    }
  }
}
