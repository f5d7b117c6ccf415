import { pathTo } from '../../../app/paths.ts';
import { ButtonLink } from '../../../components/links.tsx';

/** Where a failed order goes next: try again, or ask the customer centre. */
export function RetryOrderLinks() {
  return (
    <>
      <ButtonLink to={pathTo('orderSubscription')} variant="primary">
        Prøv igjen
      </ButtonLink>
      <ButtonLink to={pathTo('customerService')}>Kundeservice</ButtonLink>
    </>
  );
}
