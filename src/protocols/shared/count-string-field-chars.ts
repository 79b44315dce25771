/**
 * Characters inside the JSON string values of the given fields (each given as its opening,
 * `"content":"`), escapes counted as written, found by scanning instead of parsing: the
 * passthrough lane needs this only to bill what a client received when a stream is cut before
 * the upstream reported usage.
 */
export function countStringFieldChars(data: string, fields: readonly string[]): number {
  let total = 0;
  for (const field of fields) {
    let at = data.indexOf(field);
    while (at !== -1) {
      const start = at + field.length;
      let end = start;
      while (end < data.length) {
        const code = data.charCodeAt(end);
        if (code === 92 /* \ */) end += 2;
        else if (code === 34 /* " */) break;
        else end += 1;
      }
      total += end - start;
      at = data.indexOf(field, end);
    }
  }
  return total;
}
