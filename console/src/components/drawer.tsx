import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { t } from '../i18n/i18n.ts';

/** A side panel as a modal dialog: Escape closes it, focus moves in and returns on close. */
export function Drawer(props: { title: string; onClose: () => void; children: ComponentChildren }) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    panel.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') props.onClose();
    };
    addEventListener('keydown', onKey);
    return () => {
      removeEventListener('keydown', onKey);
      previous?.focus();
    };
  }, []);
  return (
    <div class="drawer-backdrop" onClick={(event) => event.target === event.currentTarget && props.onClose()}>
      <div class="drawer" role="dialog" aria-modal="true" aria-label={props.title} tabIndex={-1} ref={panel}>
        <div class="drawer-head">
          <h2>{props.title}</h2>
          <button type="button" class="small" onClick={props.onClose}>
            {t('common.close')}
          </button>
        </div>
        {props.children}
      </div>
    </div>
  );
}
