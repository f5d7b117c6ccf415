import { queryOptions } from '../../../lib/query/index.ts';
import type { ChangeLogEntry, changeLogResponseSchema } from '@minside/domain';
import { http, type ResponseOf } from '../../../lib/http.ts';
import { subscriptionKeys, subscriptionPath, type SubscriptionRef } from './keys.ts';

/** GET …/changes: the change log ("Endringslogg"), newest first. */
async function getChangeLog(subscription: SubscriptionRef, signal?: AbortSignal): Promise<ChangeLogEntry[]> {
  return (await http.get<ResponseOf<typeof changeLogResponseSchema>>(subscriptionPath(subscription, 'changes'), { signal })).entries;
}

export function changeLogQueryOptions(subscription: SubscriptionRef) {
  return queryOptions({ queryKey: subscriptionKeys.changes(subscription), queryFn: ({ signal }) => getChangeLog(subscription, signal) });
}
