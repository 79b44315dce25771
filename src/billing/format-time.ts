/**
 * A moment as a person reads it in a message: "1 Jan 2027, 00:00 UTC". Consumer-facing
 * sentences (a redeemed or used code, a subscription's dates, a quota's reset) use it; API
 * fields keep ISO strings for programs.
 */
const FORMAT = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

export function formatTime(epochMs: number): string {
  return `${FORMAT.format(new Date(epochMs))} UTC`;
}
