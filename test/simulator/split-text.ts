/** Splits text into word-sized deltas, each keeping its leading whitespace, so joining restores it. */
export function splitIntoWords(text: string): string[] {
  if (text === '') return [];
  const words = text.match(/\s*\S+/g);
  if (words === null) return [text];
  const joinedLength = words.reduce((sum, word) => sum + word.length, 0);
  const trailing = text.slice(joinedLength);
  if (trailing !== '') words[words.length - 1] += trailing;
  return words;
}

/**
 * Splits text into at most `count` pieces of near-equal length, never inside a surrogate pair,
 * so every piece is valid UTF-16 on its own (a streamed delta is JSON-encoded alone).
 */
export function splitIntoPieces(text: string, count: number): string[] {
  const codePoints = Array.from(text);
  const pieces = Math.max(1, Math.min(Math.floor(count), codePoints.length));
  if (codePoints.length === 0) return [];
  const result: string[] = [];
  for (let index = 0; index < pieces; index += 1) {
    const start = Math.floor((index * codePoints.length) / pieces);
    const end = Math.floor(((index + 1) * codePoints.length) / pieces);
    result.push(codePoints.slice(start, end).join(''));
  }
  return result;
}
