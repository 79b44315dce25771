import type { ComponentChildren } from 'preact';
import type { Resource } from '../lib/use-resource.ts';
import { t } from '../i18n/i18n.ts';

/** Loading and error states said in words; children render once data is there. */
export function AsyncView<T>(props: { resource: Resource<T>; what: string; children: (data: T) => ComponentChildren }) {
  const { resource, what } = props;
  if (resource.error) {
    return (
      <div class="notice error" role="alert">
        <p>{t('common.couldNotLoad', { what, message: resource.error.message })}</p>
        <button type="button" onClick={resource.reload}>
          {t('common.tryAgain')}
        </button>
      </div>
    );
  }
  if (resource.data === undefined) {
    return (
      <p class="muted" role="status">
        {t('common.loading', { what })}
      </p>
    );
  }
  return <>{props.children(resource.data)}</>;
}
