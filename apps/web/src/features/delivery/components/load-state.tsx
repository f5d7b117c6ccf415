import { deliveryErrorCodes } from '@minside/domain';
import { isApiError } from '../../../lib/http.ts';
import { PaperOnlyNotice } from './paper-only-notice.tsx';
import styles from './section.module.css';
import form from '../../../components/form.module.css';

/** While a page's data loads, or when it could not: the same words everywhere in the area. */
export function LoadState({ error }: { error: unknown }) {
  if (isApiError(error) && error.code === deliveryErrorCodes.paperOnly) return <PaperOnlyNotice />;
  if (error) {
    return (
      <p className={form.alert} role="alert">
        {isApiError(error) ? error.message : 'Noe gikk galt. Prøv igjen om litt.'}
      </p>
    );
  }
  return (
    <p className={styles.muted} role="status">
      Henter informasjon …
    </p>
  );
}
