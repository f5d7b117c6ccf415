import type { HandleCodeBody, HandleCodeResponse } from '@minside/domain';
import { http } from '../../../lib/http.ts';

/**
 * POST /api/handlecode (SPEC §7): what the provider sent back to /callback. A 4xx answer is
 * shown on the callback page, never turned into another login redirect.
 */
export function handleCode(body: HandleCodeBody): Promise<HandleCodeResponse> {
  return http.post<HandleCodeResponse>('handlecode', body, { skipUnauthenticatedHandler: true });
}
