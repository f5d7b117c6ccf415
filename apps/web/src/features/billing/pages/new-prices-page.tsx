import { useQuery } from '@tanstack/react-query';
import { Link } from '../../../lib/router/index.ts';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { Page } from '../../../components/page.tsx';
import { useSessionSubscription } from '../../auth/index.ts';
import { formatKroner, formatLongDate, periodLabel, priceListQueryOptions } from '../../subscription/index.ts';
import { useTitle } from '../../titles/index.ts';
import styles from './new-prices-page.module.css';

/** SPEC §2 /nye-priser (public): announced price changes, old and new price and the date; the subscriber's own first. */
export function NewPricesPage() {
  const title = useTitle();
  const mine = useSessionSubscription();
  const { data: plans, isPending, error } = useQuery(priceListQueryOptions(title.titleCode));
  const changes = (plans ?? []).filter((plan) => plan.nextPrice !== null);
  const own = mine ? changes.find((plan) => plan.ariaPlanID === mine.ariaPlanID) : undefined;

  return (
    <Page title={pages.newPrices.title} lead={`Her ser du hvilke priser hos ${title.name} som endres, hva de blir, og fra når.`}>
      {own?.nextPrice && mine ? (
        <section className={styles.own} aria-labelledby="ditt-abonnement">
          <h2 id="ditt-abonnement" className={styles.heading}>
            Ditt abonnement: {mine.planName}
          </h2>
          <p className={styles.change}>
            <span>
              <span className={styles.label}>Nå</span> {formatKroner(mine.priceOre)}
            </span>
            <span aria-hidden="true">→</span>
            <span>
              <span className={styles.label}>Fra {formatLongDate(own.nextPrice.from)}</span> <strong>{formatKroner(own.nextPrice.priceOre)}</strong>
            </span>
          </p>
          <p className={styles.text}>Den nye prisen gjelder fra første fornyelse etter {formatLongDate(own.nextPrice.from)}. Du trenger ikke gjøre noe.</p>
          <div className={styles.actions}>
            <Link className={`${button.button} ${button.secondary}`} to={pathTo('changeSubscription')}>
              Se andre abonnementer
            </Link>
          </div>
        </section>
      ) : null}
      {isPending ? <p className={styles.text}>Henter prisene …</p> : null}
      {error ? (
        <p className={styles.alert} role="alert">
          Vi fikk ikke hentet prisene akkurat nå. Prøv igjen om litt.
        </p>
      ) : null}
      {plans && changes.length === 0 ? <p className={styles.text}>Det er ingen varslede prisendringer nå.</p> : null}
      {changes.length > 0 ? (
        <div className={styles.tableWrap} role="region" aria-label="Varslede prisendringer" tabIndex={0}>
          {/* On a narrow screen the table scrolls sideways: the keyboard must reach it to scroll it (WCAG 2.1.1). */}
          <table className={styles.table}>
            <caption className={styles.caption}>Varslede prisendringer</caption>
            <thead>
              <tr>
                <th scope="col">Abonnement</th>
                <th scope="col">Pris nå</th>
                <th scope="col">Ny pris</th>
                <th scope="col">Gjelder fra</th>
              </tr>
            </thead>
            <tbody>
              {changes.map((plan) => (
                <tr key={plan.ariaPlanID}>
                  <th scope="row">
                    {plan.name}, {periodLabel(plan.billingPeriod).toLowerCase()}
                  </th>
                  <td>{formatKroner(plan.priceOre)}</td>
                  <td>
                    <strong>{formatKroner(plan.nextPrice?.priceOre ?? plan.priceOre)}</strong>
                  </td>
                  <td>{plan.nextPrice ? formatLongDate(plan.nextPrice.from) : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </Page>
  );
}
