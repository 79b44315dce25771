import { dateTime, usd } from '../lib/format.ts';

/** One quota window: used of quota as a bar, in words too (colour is never the only signal). */
export function QuotaBar(props: { label: string; used: number; quota: number | null; resetsAt?: string | null | undefined }) {
  const { used, quota } = props;
  const share = quota === null || quota <= 0 ? 0 : Math.min(used / quota, 1);
  const tone = quota === null ? 'ok' : used >= quota ? 'over' : share >= 0.8 ? 'near' : 'ok';
  const left = quota === null ? null : Math.max(quota - used, 0);
  return (
    <div class={`quota quota-${tone}`} data-window={props.label}>
      <div class="quota-head">
        <span>{props.label}</span>
        <span class="num" data-quota-text>
          {usd(used)} of {quota === null ? 'no limit' : usd(quota)} used
          {left !== null && ` · ${usd(left)} left`}
        </span>
      </div>
      {quota !== null && (
        <div
          class="quota-track"
          role="progressbar"
          aria-label={`${props.label}: ${usd(used)} of ${usd(quota)} used`}
          aria-valuemin={0}
          aria-valuemax={quota}
          aria-valuenow={Math.min(used, quota)}
        >
          <div class="quota-fill" style={{ width: `${(share * 100).toFixed(1)}%` }} />
        </div>
      )}
      {props.resetsAt && <div class="small-text muted">Resets {dateTime(props.resetsAt)}</div>}
      {tone === 'over' && <div class="small-text quota-warning">Used up{props.resetsAt ? ' until it resets' : ''}.</div>}
    </div>
  );
}
