import { availableParallelism } from 'node:os';
import { buildInfo } from '../config/build-info.ts';

export interface BannerFacts {
  url: string;
  database: string;
  workers: number;
  redis: boolean;
  channels: number;
  keys: number;
  /** A generated admin token not used yet: shown until its first use. */
  pendingAdminToken: string | undefined;
  /** The CPUs of this machine (default: os.availableParallelism()). */
  cores?: number;
  /** Models an enabled channel serves without a price (see unpricedModels). */
  unpricedModels?: readonly string[];
  /** STRICT_PRICING: unpriced models are refused (else served free). */
  strictPricing?: boolean;
}

/** Names shown before the rest is counted, so a catalogue of hundreds stays one line. */
const UNPRICED_SHOWN = 8;

/**
 * The text printed once the gateway listens (to the terminal, not through the structured log,
 * which may be shipped elsewhere): where it serves, the console, how to use every core, the
 * admin token while it was never used, and only the next steps that are still to do.
 */
export function startBanner(facts: BannerFacts): string {
  const { url } = facts;
  const cores = facts.cores ?? availableParallelism();
  const lines = [
    '',
    `Switchyard ${buildInfo().version} is serving at ${url}`,
    `  Console:  ${url}/console (sign in with the admin token, or with an API key to see its usage)`,
    `  Clients:  ${url}/v1 (OpenAI SDKs, Codex), ${url} (Claude Code, Gemini CLI, Anthropic and Gemini SDKs)`,
    `  Data:     ${facts.database}; ${plural(facts.channels, 'channel')}, ${plural(facts.keys, 'key')}`,
    `  Workers:  ${workersLine(facts.workers, cores, facts.redis)}`,
  ];
  const unpriced = facts.unpricedModels ?? [];
  if (unpriced.length > 0) {
    const shown = unpriced.slice(0, UNPRICED_SHOWN).join(', ') + (unpriced.length > UNPRICED_SHOWN ? ` and ${unpriced.length - UNPRICED_SHOWN} more` : '');
    const fate = facts.strictPricing
      ? 'requests for them are refused (403 model_not_priced)'
      : 'requests for them are served FREE (set STRICT_PRICING=true to refuse them)';
    lines.push(`  Prices:   ${plural(unpriced.length, 'served model')} without a price: ${shown}; ${fate}. Set prices: POST /api/admin/prices`);
  }
  const token = facts.pendingAdminToken;
  if (token) {
    lines.push(
      '',
      'Switchyard generated an admin token. Only its hash is stored; it is shown at every start until it is',
      'first used, then never again. If you lose it, set GATEWAY_ADMIN_TOKEN (16+ characters) and restart.',
      '',
      `    GATEWAY_ADMIN_TOKEN=${token}`,
    );
  }
  const auth = `-H "authorization: Bearer ${token ?? '$GATEWAY_ADMIN_TOKEN'}" -H 'content-type: application/json'`;
  const steps: string[] = [];
  if (facts.channels === 0) {
    steps.push(
      `Add a channel:  curl -s ${url}/api/admin/channels ${auth} \\`,
      `       -d '{"name":"openai","provider":"openai","baseUrl":"https://api.openai.com/v1","apiKey":"sk-...","models":["gpt-4o-mini"],"groups":["default"]}'`,
    );
  }
  if (facts.keys === 0) {
    steps.push(`Create a key:   curl -s ${url}/api/admin/keys ${auth} -d '{"name":"me","group":"default"}'`);
  }
  if (steps.length > 0) {
    lines.push('', 'Next steps (or use the console):');
    for (const line of steps) lines.push(line.startsWith(' ') ? line : `  - ${line}`);
    lines.push(`  - Point a client at ${url}/v1 (OpenAI SDKs) or ${url} (Claude Code, Gemini CLI); see README.md.`);
  }
  lines.push('');
  return lines.join('\n');
}

function workersLine(workers: number, cores: number, redis: boolean): string {
  if (workers > 1) return `${workers} processes${redis ? ', state shared through Redis' : ''}`;
  if (cores <= 1) return '1 process';
  const how = redis ? `set WORKERS=${cores}` : `set REDIS_URL=redis://… and WORKERS=${cores}`;
  return `1 process on a ${cores}-core machine; to use every core, ${how}`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
