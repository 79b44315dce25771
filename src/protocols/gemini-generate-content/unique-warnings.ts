import type { Warning } from '../../core/warning.ts';

/** One warning per distinct cause: twenty dropped parts of one kind are one thing to report. */
export function uniqueWarnings(warnings: Warning[]): Warning[] {
  const seen = new Set<string>();
  return warnings.filter((warning) => {
    const key = JSON.stringify(warning);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
