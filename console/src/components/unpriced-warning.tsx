import type { AdminData } from '../lib/admin-data.ts';
import { followLink } from '../lib/router.ts';
import { unpricedModels } from '../lib/unpriced-models.ts';

/**
 * Shown wherever balances and unpriced models meet: those requests are free and never draw a
 * balance down. Each model gets a "Set price" action (on the pricing page it fills the form).
 */
export function UnpricedWarning(props: { admin: AdminData; onPrice?: (model: string) => void }) {
  const models = unpricedModels(props.admin);
  if (models.length === 0) return null;
  return (
    <div class="notice warn" role="status" data-unpriced>
      <p>
        <strong>
          {models.length === 1 ? 'A model has' : `${models.length} models have`} no price but {models.length === 1 ? 'is' : 'are'} used by keys with a
          balance:
        </strong>{' '}
        those requests cost nothing and never draw the balance down. Price {models.length === 1 ? 'it' : 'them'}, or start the gateway with
        STRICT_PRICING=true to refuse unpriced models.
      </p>
      <ul class="unpriced-list">
        {models.map((entry) => (
          <li key={entry.model}>
            <code>{entry.model}</code> <span class="muted small-text">(groups {entry.groups.join(', ')})</span>{' '}
            {props.onPrice ? (
              <button type="button" class="small" onClick={() => props.onPrice?.(entry.model)}>
                Set price
              </button>
            ) : (
              <a href={`/console/pricing?model=${encodeURIComponent(entry.model)}`} onClick={(event) => followLink(event, `/pricing?model=${encodeURIComponent(entry.model)}`)}>
                Set price
              </a>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
