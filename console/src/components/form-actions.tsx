/** An edit form's buttons: submit (showing it is busy while saving) and cancel. */
export function FormActions(props: { busy: boolean; submitLabel: string; onCancel: () => void }) {
  return (
    <div class="actions">
      <button type="submit" class="primary" disabled={props.busy}>
        {props.busy ? 'Saving…' : props.submitLabel}
      </button>
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
    </div>
  );
}
