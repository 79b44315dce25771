/**
 * A moment as a person reads it in a message: "1 Jan 2027, 00:00 UTC". Consumer-facing
 * sentences (a redeemed or used code, a subscription's dates, a quota's reset) use it; API
 * fields keep ISO strings for programs.
 */
export function formatTime(epochMs: number): string {
  return `${format().format(new Date(epochMs))} UTC`;
}

let FORMAT: Intl.DateTimeFormat | undefined;

/**
 * Built on the first message, not when the module loads: the first `Intl` formatter pages in
 * ~6 MB of the node binary's ICU data, resident from then on, and most gateways never write
 * such a message (idle RSS; BENCHMARKS.md).
 */
function format(): Intl.DateTimeFormat {
  FORMAT ??= new Intl.DateTimeFormat('en-GB', {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  return FORMAT;
}
