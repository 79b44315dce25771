import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_BIN } from '../../test/helpers/run-cli.ts';

/** One command-line client at one version, installed somewhere. */
export interface ClientInstall {
  client: CompatClient;
  version: string;
  /** Pinned in test/clients (run by `npm test`), or the newest published one. */
  origin: 'pinned' | 'newest' | 'pinned, newest';
  binDir: string;
}

export type CompatClient = 'claude' | 'codex' | 'gemini';

export const PACKAGES: Record<CompatClient, string> = {
  claude: '@anthropic-ai/claude-code',
  codex: '@openai/codex',
  gemini: '@google/gemini-cli',
};

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * The pinned versions (test/clients/package.json, installed by `npm test`) and the newest published
 * ones (`npm view`), each installed once: a newest version equal to the pinned one uses the
 * pinned install; another goes into `<workDir>/<client>-<version>` (kept between runs).
 */
export function installClients(workDir: string, log: (line: string) => void): ClientInstall[] {
  const pinned = (JSON.parse(readFileSync(join('test', 'clients', 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies;
  if (!existsSync(join(CLI_BIN, 'codex'))) execFileSync(process.execPath, ['scripts/install-test-clients.mjs'], { stdio: 'inherit' });
  const installs: ClientInstall[] = [];
  for (const client of Object.keys(PACKAGES) as CompatClient[]) {
    const name = PACKAGES[client];
    const pinnedVersion = pinned[name];
    if (pinnedVersion === undefined) throw new Error(`${name} is not pinned in test/clients/package.json`);
    const newest = execFileSync(npm, ['view', name, 'version'], { encoding: 'utf8' }).trim();
    log(`${name}: pinned ${pinnedVersion}, newest ${newest}`);
    if (newest === pinnedVersion) {
      installs.push({ client, version: pinnedVersion, origin: 'pinned, newest', binDir: CLI_BIN });
      continue;
    }
    installs.push({ client, version: pinnedVersion, origin: 'pinned', binDir: CLI_BIN });
    const directory = join(workDir, `${name.replace('/', '__')}-${newest}`);
    const binDir = join(directory, 'node_modules', '.bin');
    if (!existsSync(join(binDir, client))) {
      log(`installing ${name}@${newest} into ${directory}`);
      mkdirSync(directory, { recursive: true });
      execFileSync(npm, ['install', '--prefix', directory, `${name}@${newest}`, '--no-audit', '--no-fund', '--loglevel=error'], { stdio: 'inherit' });
    }
    installs.push({ client, version: newest, origin: 'newest', binDir });
  }
  return installs;
}
