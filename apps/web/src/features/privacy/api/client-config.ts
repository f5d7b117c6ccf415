import { queryOptions } from '../../../lib/query/index.ts';
import type { ClientConfig } from '@minside/domain';
import { http } from '../../../lib/http.ts';

// Apart from the consent calls (consent.ts): every page reads the title's client configuration,
// while the consent calls load only with the server's side of consent (issue 27).

/** GET /api/client-config: consent vendor, analytics collector and RUM, as configured for this title. */
function getClientConfig(titleCode: string, signal?: AbortSignal): Promise<ClientConfig> {
  return http.get<ClientConfig>(`client-config?titleCode=${encodeURIComponent(titleCode)}`, { signal });
}

export function clientConfigQueryOptions(titleCode: string) {
  return queryOptions({
    queryKey: ['privacy', 'client-config', titleCode] as const,
    queryFn: ({ signal }) => getClientConfig(titleCode, signal),
    staleTime: Infinity,
    retry: 1,
  });
}
