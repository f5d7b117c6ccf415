import { useQuery } from '../../../lib/query/index.ts';
import type { DeliveryNotice, DeliveryNoticeList } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { deliveryKeys, titleQuery } from './keys.ts';

/** GET /api/delivery/notices: the operator's notices about today's paper for this subscriber. */
async function getDeliveryNotices(titleCode: string): Promise<DeliveryNotice[]> {
  return (await http.get<DeliveryNoticeList>(`delivery/notices${titleQuery(titleCode)}`)).notices;
}

/** Only paper subscribers have notices: for others the call is not made. */
export function useDeliveryNotices(titleCode: string, isPaper: boolean) {
  return useQuery({ queryKey: deliveryKeys.notices(titleCode), queryFn: () => getDeliveryNotices(titleCode), enabled: isPaper && titleCode !== '', staleTime: 5 * 60_000 });
}
