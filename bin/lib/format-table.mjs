/**
 * Aligned columns with a header row, for terminals. Cells are strings; `null`/`undefined`
 * show as "-" so an empty value is visible rather than a gap.
 * @param {string[]} headers
 * @param {Array<Array<string | number | boolean | null | undefined>>} rows
 * @returns {string}
 */
export function formatTable(headers, rows) {
  const cells = rows.map((row) => row.map((cell) => (cell === null || cell === undefined || cell === '' ? '-' : String(cell))));
  const widths = headers.map((header, column) => Math.max(header.length, ...cells.map((row) => (row[column] ?? '').length)));
  const line = (/** @type {string[]} */ row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...cells.map(line)].join('\n') + '\n';
}
