import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '../../../lib/router/index.ts';
import type { Subscription } from '@minside/domain';
import { pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { useSessionUser } from '../../auth/index.ts';
import { reactivateSubscription } from '../api/mutations.ts';
import type { ReactivatedState } from '../pages/subscription-reactivated-page.tsx';
import { useSubscriptionUpdate } from '../use-subscription.ts';
import ui from '../../../components/ui.module.css';

/** Starts an expired subscription again (POST reactivateSubscription/) and shows the receipt page. */
export function ReactivateButton({ subscription, label = 'Start abonnementet igjen' }: { subscription: Subscription; label?: string }) {
  const user = useSessionUser();
  const update = useSubscriptionUpdate();
  const navigate = useNavigate();
  const mutation = useMutation({
    mutationFn: () => reactivateSubscription(subscription, user?.email ?? ''),
    onSuccess: (result) => {
      update(result.subscription);
      void navigate(pathTo('subscriptionReactivated'), { state: { invoice: result.invoice } satisfies ReactivatedState });
    },
  });
  return (
    <>
      <ErrorAlert error={mutation.error} />
      <div className={ui.actions}>
        <button type="button" className={`${button.button} ${button.primary} ${ui.button}`} disabled={mutation.isPending} onClick={() => mutation.mutate()}>
          {mutation.isPending ? 'Starter abonnementet …' : label}
        </button>
      </div>
    </>
  );
}
