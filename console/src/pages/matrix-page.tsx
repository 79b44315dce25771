import { AsyncView } from '../components/async-view.tsx';
import { PageHead } from '../components/page-head.tsx';
import { GroupsCard } from './groups-card.tsx';
import { loadAdminData } from '../lib/admin-data.ts';
import { usd } from '../lib/format.ts';
import { buildModelMatrix, cellKey, type ModelMatrix } from '../lib/model-matrix.ts';
import { followLink } from '../lib/router.ts';
import { bearerOf, type Session } from '../lib/session.ts';
import { useResource } from '../lib/use-resource.ts';
import { t } from '../i18n/i18n.ts';

/** The specification's "group or channel available" at a glance. */
export function MatrixPage(props: { session: Session }) {
  const bearer = bearerOf(props.session);
  const data = useResource(async () => {
    const admin = await loadAdminData(bearer);
    return buildModelMatrix(admin.groups, admin.channels, admin.prices);
  }, [bearer]);
  return (
    <section>
      <PageHead title={t('matrix.title')} onRefresh={data.reload} />
      <p class="muted">
        {t('matrix.intro')}
      </p>
      <AsyncView resource={data} what={t('matrix.what')}>
        {(matrix) => <MatrixTable matrix={matrix} />}
      </AsyncView>
      <GroupsCard token={bearer} onChanged={data.reload} />
    </section>
  );
}

function MatrixTable({ matrix }: { matrix: ModelMatrix }) {
  if (matrix.models.length === 0) {
    return (
      <p class="notice">
        {t('matrix.noModels')}{' '}
        <a href="/console/channels" onClick={(event) => followLink(event, '/channels')}>
          {t('matrix.addChannel')}
        </a>{' '}
        {t('matrix.toMake')}
      </p>
    );
  }
  return (
    <div class="table-wrap">
      <table class="matrix stacked">
        <caption class="visually-hidden">{t('matrix.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('matrix.model')}</th>
            {matrix.groups.map((group) => (
              <th scope="col" key={group.name}>
                {group.name}
                {group.priceMultiplier !== 1 && <span class="muted"> ×{group.priceMultiplier}</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {matrix.models.map((model) => {
            const price = matrix.prices.get(model);
            return (
              <tr key={model}>
                <th scope="row">
                  <code>{model}</code>
                </th>
                {matrix.groups.map((group) => {
                  const cell = matrix.cells.get(cellKey(group.name, model));
                  if (!cell) {
                    return (
                      <td key={group.name} class="cell-none" data-cell={`${group.name}/${model}`} data-label={group.name}>
                        {t('matrix.notOffered')}
                      </td>
                    );
                  }
                  const state = cell.usable === 0 ? 'down' : cell.usable < cell.total ? 'partial' : 'ok';
                  return (
                    <td key={group.name} class={`cell-${state}`} data-cell={`${group.name}/${model}`} data-label={group.name}>
                      <strong>
                        {cell.usable === 0 ? t('matrix.unavailable') : t('matrix.available')} {cell.usable}/{cell.total}
                      </strong>
                      <div class="small-text">
                        {price ? `${usd(price.input * group.priceMultiplier)} / ${usd(price.output * group.priceMultiplier)}` : t('matrix.noPrice')}
                      </div>
                      <div class="small-text muted">
                        {cell.channels.map((channel) => `${channel.name}${channel.usable ? '' : ` (${channel.label})`}`).join(', ')}
                      </div>
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
