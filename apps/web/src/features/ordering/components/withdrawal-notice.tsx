import { useQuery } from '../../../lib/query/index.ts';
import { Link } from '../../../lib/router/index.ts';
import { addDays, formatLongDate, WITHDRAWAL_DAYS, type Subscription, type WithdrawalResponse } from '@minside/domain';
import { pathTo } from '../../../app/paths.ts';
import ui from '../../../components/ui.module.css';
import { withdrawalQueryOptions } from '../api/withdrawal.ts';

/** Beyond the 14 days a deadline can move past weekends and holidays (Christmas, Easter): no more than this. */
const LONGEST_EXTENSION_DAYS = 6;

/**
 * Whether the right of withdrawal is open, asked of the server only for a subscription that started
 * recently enough to still be within it (the server decides); undefined for any other.
 */
export function useWithdrawalNotice(subscription: Subscription | null, today: string) {
  const recent = subscription !== null && subscription.sharedFrom === null && subscription.startedOn >= addDays(today, -(WITHDRAWAL_DAYS + LONGEST_EXTENSION_DAYS));
  const { data } = useQuery({ ...withdrawalQueryOptions(subscription ?? { ariaAccountNo: 0, titleCode: '' }), enabled: recent });
  return recent ? data : undefined;
}

/**
 * "Du kan angre kjøpet til og med …" on the subscription page while the right of withdrawal is open
 * (ADR 030), from `useWithdrawalNotice`'s answer: the page asks once, with its other calls (the
 * answer is never kept fresh, so a second asker would ask again).
 */
export function WithdrawalNotice({ status: data }: { status: WithdrawalResponse | undefined }) {
  if (data?.state !== 'open' || !data.deadline) return null;
  return (
    <p className={ui.text}>
      Du kjøpte abonnementet {data.agreedOn ? formatLongDate(data.agreedOn) : ''} og har angrerett til og med {formatLongDate(data.deadline)}. <Link to={pathTo('withdrawal')}>Angre kjøpet</Link>
    </p>
  );
}
