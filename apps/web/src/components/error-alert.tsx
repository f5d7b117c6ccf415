import { isApiError } from '../lib/http.ts';
import ui from './ui.module.css';

export const somethingWentWrong = 'Noe gikk galt. Prøv igjen om litt.';

/**
 * A failed call, in words for the user: the API's own Norwegian message, or `fallback` when
 * there is none (network, 5xx). Renders nothing without an error.
 */
export function ErrorAlert({ error, fallback = somethingWentWrong }: { error: unknown; fallback?: string }) {
  if (!error) return null;
  return (
    <p className={ui.alert} role="alert">
      {isApiError(error) ? error.message : fallback}
    </p>
  );
}
