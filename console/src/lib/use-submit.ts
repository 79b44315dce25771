import { useState } from 'preact/hooks';
import { errorMessage } from './error-message.ts';

export interface Submission {
  busy: boolean;
  error: string | null;
  /** For a check that fails before anything is sent. */
  setError: (error: string | null) => void;
  /** Runs `action` with the form busy; a failure becomes the error, in `describe`'s words. */
  run: (action: () => Promise<void>, describe?: (caught: unknown) => string) => Promise<void>;
}

/** A form's submit in flight: one busy flag and one error, cleared when a new attempt starts. */
export function useSubmit(): Submission {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => Promise<void>, describe: (caught: unknown) => string = errorMessage) => {
    setError(null);
    setBusy(true);
    try {
      await action();
    } catch (caught) {
      setError(describe(caught));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}
