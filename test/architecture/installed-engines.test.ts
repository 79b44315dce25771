import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import semver from 'semver';

// `npm ci` on the oldest Node the project declares must print no EBADENGINE warning: a newcomer's
// first screen is the install log. So every package the lock files install (the gateway's and the
// console's) must accept the lowest Node version in package.json's `engines.node`
// (20.19.0: the console's build tool, Vite 8, needs it).

const root = process.cwd();

interface LockFile {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
}

/** What `npm ci` installs, read from the lock file (which records each package's `engines`), not from node_modules: the check is about a fresh install. */
function lockedPackagesOf(projectDirectory: string): Array<{ path: string; version: string; node: string | undefined }> {
  const lock = JSON.parse(readFileSync(join(projectDirectory, 'package-lock.json'), 'utf8')) as LockFile;
  return Object.entries(lock.packages)
    .filter(([path]) => path !== '')
    .map(([path, entry]) => ({ path, version: entry.version ?? '?', node: Array.isArray(entry.engines) ? undefined : entry.engines?.node }));
}

const declared = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
const oldestNode = semver.minVersion(declared);

test('the declared Node range has a lowest version', () => {
  assert.ok(oldestNode, `package.json engines.node "${declared}" names no version`);
});

for (const project of ['.', 'console']) {
  test(`every package installed by ${project === '.' ? 'the gateway' : 'the console'}'s lock accepts Node ${oldestNode?.version}`, () => {
    const packages = lockedPackagesOf(join(root, project));
    assert.ok(packages.length > 0, `${project}/package-lock.json lists no packages`);
    const refused = packages
      .filter((entry) => entry.node !== undefined && !semver.satisfies(oldestNode!, entry.node, { includePrerelease: true }))
      .map((entry) => `${entry.path}@${entry.version} wants node ${entry.node}`);
    assert.deepEqual(refused, []);
  });
}
