/**
 * `npm run compat`: the compatibility matrix by client version. Installs the newest published
 * Claude Code, Codex and Gemini CLI beside the pinned ones (test/clients), runs the agentic suite
 * (plain turn, two-step tool loop with reasoning on, a session that compacts) through a local
 * gateway against the strict provider simulator, once per upstream kind, and writes
 * docs/compatibility.md (client × version × upstream kind → pass/fail with the failing step).
 * Needs the npm registry, so it is not part of `npm test` (which runs the pinned versions).
 *
 * COMPAT_DIR: where the newest clients are installed (default <tmp>/switchyard-compat, kept);
 * COMPAT_CLIENTS=claude,codex: only these clients.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHarness } from '../../test/helpers/gateway-harness.ts';
import { offeredTools, readCall } from '../../test/helpers/cli-tool-calls.ts';
import { installClients } from './compat-clients.ts';
import { CLI_MODELS, COMPACTION_MARKERS, REPLY, runSuite, SECRET, STEPS, type StepResult } from './compat-suite.ts';
import { renderMatrix, type MatrixRow } from './render-matrix.ts';

const BEDROCK_KEY = 'bedrock-api-key-for-compat';
const UPSTREAMS = [
  { kind: 'OpenAI Responses', channel: { provider: 'openai', supportsResponses: true }, upstreamModel: 'gpt-5' },
  { kind: 'Anthropic Messages', channel: { provider: 'anthropic' }, upstreamModel: 'claude-sonnet-4-6' },
  { kind: 'Gemini', channel: { provider: 'gemini' }, upstreamModel: 'gemini-3-pro-preview' },
  {
    kind: 'Bedrock Converse',
    channel: { provider: 'bedrock', region: 'us-east-1', apiKey: BEDROCK_KEY },
    upstreamModel: 'anthropic.claude-sonnet-4-5-20250929-v1:0',
  },
] as const;
// Every name the CLIs ask for: their main models, and the aliases and helpers they resolve to.
const CHANNEL_MODELS = [
  ...Object.values(CLI_MODELS),
  'claude-haiku-4-5',
  'gemini-3.1-pro-preview',
  'gemini-3.1-pro-preview-customtools',
  'gemini-3-flash-preview',
  'gemini-2.5-pro',
  'gemini-2.5-flash',
  'gemini-2.5-flash-lite',
];

const log = (line: string) => console.log(`[compat] ${line}`);
// The code under test is what is loaded now: its commit, read before the (long) run, not after it.
const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', 'src', 'scripts', 'test'], { encoding: 'utf8' }).trim() !== '';
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim() + (dirty ? ' + uncommitted changes' : '');
const workDir = process.env.COMPAT_DIR ?? join(tmpdir(), 'switchyard-compat');
const only = process.env.COMPAT_CLIENTS?.split(',').map((name) => name.trim());
const installs = installClients(workDir, log).filter((install) => only === undefined || only.includes(install.client));

const harness = await startHarness(
  { upstream: { connectMs: 2000, firstByteMs: 30_000, idleMs: 30_000 } },
  { clouds: { bedrock: { credentials: {}, apiKeys: [BEDROCK_KEY] } } },
);
const home = mkdtempSync(join(tmpdir(), 'switchyard-compat-run-'));
const rows: MatrixRow[] = [];
try {
  const keys = new Map<string, string>();
  for (const upstream of UPSTREAMS) {
    const group = `compat-${upstream.kind.toLowerCase().replace(/\W+/g, '-')}`;
    await harness.admin('POST', '/groups', { name: group }, 201);
    await harness.addChannel({
      ...upstream.channel,
      ...(upstream.channel.provider === 'bedrock' ? { baseUrl: harness.simulator.url } : {}),
      models: CHANNEL_MODELS,
      modelMap: Object.fromEntries(CHANNEL_MODELS.map((model) => [model, upstream.upstreamModel])),
      groups: [group],
    });
    keys.set(upstream.kind, (await harness.addKey({ group })).key);
  }
  // The model's side: answer a compaction request with a summary, a turn carrying the file's
  // content with the answer, a request to read the file with a call to the CLI's own read tool
  // (with reasoning, which the next turn must carry back), anything else with the plain reply.
  harness.simulator.onRequest((request) => {
    if (request.endpoint !== 'generate') return;
    const text = request.rawBody;
    if (Object.values(COMPACTION_MARKERS).some((marker) => text.includes(marker))) {
      harness.simulator.enqueue({
        text: '<summary>The user asked for pong; it was answered.</summary><state_snapshot>The user asked for pong; it was answered.</state_snapshot>',
      });
      return;
    }
    if (text.includes(SECRET)) {
      harness.simulator.enqueue({ reasoning: { text: 'The tool returned the file; answer with it.' }, text: `The notes file says ${SECRET}.` });
      return;
    }
    const file = /(\/[^\s"\\]*notes\.txt)/.exec(text)?.[1];
    const call = file === undefined ? undefined : readCall(offeredTools(request), file);
    harness.simulator.enqueue(call ? { reasoning: { text: 'I should read notes.txt before answering.' }, toolCalls: [call] } : { text: REPLY });
  });

  for (const install of installs) {
    for (const upstream of UPSTREAMS) {
      log(`${install.client} ${install.version} on ${upstream.kind} …`);
      const results: StepResult[] = await runSuite(harness, install, keys.get(upstream.kind)!, home);
      for (const result of results) log(`  ${result.passed ? 'pass' : 'FAIL'} ${result.step}${result.detail ? ` — ${result.detail}` : ''}`);
      rows.push({ install, upstream: upstream.kind, results });
    }
  }
} finally {
  await harness.close();
  rmSync(home, { recursive: true, force: true });
}

writeFileSync(join('docs', 'compatibility.md'), renderMatrix(rows, { date: new Date().toISOString().slice(0, 10), commit, steps: STEPS }));
log(`wrote docs/compatibility.md (${rows.length} rows)`);
