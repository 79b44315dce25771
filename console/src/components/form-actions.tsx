import { t } from '../i18n/i18n.ts';

/** An edit form's buttons: submit (showing it is busy while saving) and cancel. */
export function FormActions(props: { busy: boolean; submitLabel: string; onCancel: () => void }) {
  return (
    <div class="actions">
      <button type="submit" class="primary" disabled={props.busy}>
        {props.busy ? t('common.saving') : props.submitLabel}
      </button>
      <button type="button" onClick={props.onCancel}>
        {t('common.cancel')}
      </button>
    </div>
  );
}
