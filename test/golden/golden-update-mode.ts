/**
 * `UPDATE_GOLDEN=1` rewrites the golden files from what the gateway does now and checks
 * nothing, so a run with it always passes. That is fine on a developer's machine, where the
 * rewritten files are reviewed in the diff, and never acceptable where a pass is taken as
 * proof: under CI it is refused.
 */
export function goldenUpdateMode(env: Record<string, string | undefined>): boolean {
  if (env.UPDATE_GOLDEN !== '1') return false;
  if (isCi(env)) {
    throw new Error(`UPDATE_GOLDEN=1 rewrites the golden files instead of checking them, so it is refused under CI (CI=${env.CI}). Unset UPDATE_GOLDEN.`);
  }
  return true;
}

/** CI services set `CI` (usually to `true`); `false`, `0` and empty mean a developer said otherwise. */
function isCi(env: Record<string, string | undefined>): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}
