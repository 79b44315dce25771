/** `$0.004096`, `$5.00`: exact micro-USD, trailing zeros trimmed to cents. */
export function formatUsd(micros: number): string {
  const sign = micros < 0 ? '-' : '';
  const fixed = (Math.abs(micros) / 1_000_000).toFixed(6).replace(/0{1,4}$/, '');
  return `${sign}$${fixed}`;
}
