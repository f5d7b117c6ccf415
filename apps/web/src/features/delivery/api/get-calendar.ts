import { queryOptions, useQuery } from '../../../lib/query/index.ts';
import type { DeliveryCalendar } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { deliveryKeys, titleQuery } from './keys.ts';

/** GET /api/delivery/calendar: issue days, the cutoff and the next possible delivery day. */
function getDeliveryCalendar(titleCode: string): Promise<DeliveryCalendar> {
  return http.get<DeliveryCalendar>(`delivery/calendar${titleQuery(titleCode)}`);
}

const deliveryCalendarQueryOptions = (titleCode: string) => queryOptions({ queryKey: deliveryKeys.calendar(titleCode), queryFn: () => getDeliveryCalendar(titleCode) });

export function useDeliveryCalendar(titleCode: string) {
  return useQuery(deliveryCalendarQueryOptions(titleCode));
}
