import { isApiError, isConnectionError } from '../lib/http.ts';
import button from './button.module.css';
import ui from './ui.module.css';

const somethingWentWrong = 'Noe gikk galt. Prøv igjen om litt.';

export interface ErrorAlertProps {
  error: unknown;
  /** What a failed call says when the API has no Norwegian message of its own (5xx). */
  fallback?: string | undefined;
  /**
   * Sends the same action again. Offered as "Prøv igjen" when the call got no answer (offline,
   * network, timeout): a write keeps its idempotency key until answered, so the retry cannot
   * make the change twice (lib/http.ts, ADR 029).
   */
  onRetry?: (() => void) | undefined;
}

/**
 * A failed call, in words for the user: the API's own Norwegian message, the connection's
 * (offline, no answer), or `fallback` when there is none. Renders nothing without an error.
 */
export function ErrorAlert({ error, fallback = somethingWentWrong, onRetry }: ErrorAlertProps) {
  if (!error) return null;
  const message = isApiError(error) ? error.message : fallback;
  if (onRetry && isConnectionError(error)) {
    return (
      <div className={`${ui.alert} ${ui.alertWithAction}`}>
        <p className={ui.alertText} role="alert">
          {message}
        </p>
        <button type="button" className={`${button.button} ${button.secondary}`} onClick={onRetry}>
          Prøv igjen
        </button>
      </div>
    );
  }
  return (
    <p className={ui.alert} role="alert">
      {message}
    </p>
  );
}
