import type { ComponentChildren } from 'preact';
import { t } from '../i18n/i18n.ts';

/** A page's title bar: the heading, the page's own controls, and Refresh last. */
export function PageHead(props: { title: string; onRefresh: () => void; children?: ComponentChildren }) {
  return (
    <div class="page-head">
      <h1>{props.title}</h1>
      {props.children}
      <button type="button" class="small" onClick={props.onRefresh}>
        {t('common.refresh')}
      </button>
    </div>
  );
}
