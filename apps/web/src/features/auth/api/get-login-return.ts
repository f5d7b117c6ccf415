import type { LoginReturnResponse } from '@minside/domain';
import { http } from '../../../lib/http.ts';

/** An unfinished login's target is worth a moment's wait, not the client's full timeout: the tab's own is the fallback. */
const LOGIN_RETURN_TIMEOUT_MS = 3000;

/**
 * GET /api/login/return: where the login this browser started with `state` was to return to, for
 * /callback after "Avbryt" or a failure (a login the header's link started left none in the tab).
 */
export function getLoginReturn(state: string): Promise<LoginReturnResponse> {
  return http.get<LoginReturnResponse>(`login/return?${new URLSearchParams({ state })}`, { skipUnauthenticatedHandler: true, signal: AbortSignal.timeout(LOGIN_RETURN_TIMEOUT_MS) });
}
