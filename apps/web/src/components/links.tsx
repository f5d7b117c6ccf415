import type { ReactNode } from 'react';
import { Link } from '../lib/router/index.ts';
import { pathTo } from '../app/paths.ts';
import button from './button.module.css';

type Variant = 'primary' | 'secondary';

/** A link that looks like a button. */
export function ButtonLink({ to, variant = 'secondary', children }: { to: string; variant?: Variant; children: ReactNode }) {
  return (
    <Link className={`${button.button} ${button[variant]}`} to={to}>
      {children}
    </Link>
  );
}

/** "Til Min Side": back to the overview, where a finished task ends. */
export function HomeLink({ variant = 'primary', children = 'Til Min Side' }: { variant?: Variant; children?: ReactNode }) {
  return (
    <ButtonLink to={pathTo('home')} variant={variant}>
      {children}
    </ButtonLink>
  );
}

/** Where to go when self-service cannot do it: home, or the customer centre. */
export function HomeAndCustomerServiceLinks() {
  return (
    <>
      <HomeLink />
      <ButtonLink to={pathTo('customerService')}>Kundeservice</ButtonLink>
    </>
  );
}
