import { t } from '../i18n/i18n.ts';

/** Why a typed model name misses a listed one: case, stray spaces, or a small typo. */
export function suggestName(typed: string, names: string[]): { name: string; why: string } | null {
  const trimmed = typed.trim();
  for (const name of names) {
    if (name === trimmed && name !== typed) return { name, why: t('checkSteps.whySpaces') };
  }
  for (const name of names) {
    if (name.toLowerCase() === trimmed.toLowerCase()) return { name, why: t('checkSteps.whyCase') };
  }
  let best: { name: string; distance: number } | null = null;
  for (const name of names) {
    const distance = editDistance(trimmed.toLowerCase(), name.toLowerCase());
    if (distance <= 2 && (!best || distance < best.distance)) best = { name, distance };
  }
  return best ? { name: best.name, why: t('checkSteps.whyTypo') } : null;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
