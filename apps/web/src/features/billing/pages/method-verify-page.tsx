import { useCallback } from 'react';
import { Link } from '../../../lib/router/index.ts';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { ProviderReturn, type ProviderReturnProps } from '../components/provider-return.tsx';
import { useMethodChanged } from '../use-method-changed.ts';

/**
 * Back from the provider after a card or payment method change: the verify route of `source`
 * (`/…/verify`), whose retry goes back to the form of `source` itself.
 */
export function MethodVerifyPage({ source, headingFor }: Pick<ProviderReturnProps, 'source' | 'headingFor'>) {
  const methodChanged = useMethodChanged();
  const onSucceeded = useCallback(() => methodChanged(), [methodChanged]);
  const page = pages[`${source}Verify`];
  return (
    <Page title={page.title} lead="Vi sjekker svaret fra betalingstjenesten.">
      <div className={ui.stack}>
        <ProviderReturn
          source={source}
          headingFor={headingFor}
          onSucceeded={onSucceeded}
          retryTo={pathTo(source)}
          retryLabel="Prøv igjen"
          successLinks={
            <Link className={`${button.button} ${button.secondary}`} to={pathTo('changePaymentMethod')}>
              Se betalingsmetoden
            </Link>
          }
        />
      </div>
    </Page>
  );
}
