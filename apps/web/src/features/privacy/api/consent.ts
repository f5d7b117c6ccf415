import { queryOptions } from '../../../lib/query/index.ts';
import type { ConsentState, ConsentUpdateBody } from '@minside/domain';
import { http } from '../../../lib/http.ts';

/** The query key of the signed-in user's consent (the title's client configuration is in client-config.ts). */
export const consentKeys = {
  consent: ['privacy', 'consent'] as const,
};

// The consent calls answer 401 to a visitor who is not signed in: that means "nothing kept on
// the server", never "go and log in" (SPEC §8's redirect is for the pages that need a login).
const quiet = { skipUnauthenticatedHandler: true } as const;

/** GET /api/consent: the signed-in user's current choice and its history, newest first. */
export function getConsent(signal?: AbortSignal): Promise<ConsentState> {
  return http.get<ConsentState>('consent', { signal, ...quiet });
}

export function consentQueryOptions() {
  return queryOptions({ queryKey: consentKeys.consent, queryFn: ({ signal }) => getConsent(signal), staleTime: 0 });
}

/** PUT /api/consent: a new choice (a repeated, unchanged one adds no history). */
export function putConsent(body: ConsentUpdateBody): Promise<ConsentState> {
  return http.put<ConsentState>('consent', body, quiet);
}
