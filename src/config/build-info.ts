import { readFileSync } from 'node:fs';

export interface BuildInfo {
  version: string;
  /** The git commit the build came from: SWITCHYARD_COMMIT (set by image builds) or .git/HEAD. */
  commit: string;
  node: string;
}

let cached: BuildInfo | undefined;

/** What is running: for the start banner, `--version` and the `switchyard_build_info` metric. */
export function buildInfo(): BuildInfo {
  cached ??= {
    version: readVersion(),
    commit: process.env.SWITCHYARD_COMMIT ?? readCommit(),
    node: process.version,
  };
  return cached;
}

// src/config/build-info.ts and dist/config/build-info.js both sit two directories below package.json.
function readVersion(): string {
  try {
    const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
    return String((JSON.parse(text) as { version?: unknown }).version ?? 'unknown');
  } catch {
    return 'unknown';
  }
}

function readCommit(): string {
  try {
    const head = readFileSync(new URL('../../.git/HEAD', import.meta.url), 'utf8').trim();
    if (!head.startsWith('ref: ')) return head.slice(0, 12);
    const ref = readFileSync(new URL(`../../.git/${head.slice(5)}`, import.meta.url), 'utf8').trim();
    return ref.slice(0, 12);
  } catch {
    return 'unknown'; // a worktree (.git is a file) or an image without .git
  }
}
