import { useQueryClient } from '../../lib/query/index.ts';
import { useCallback } from 'react';
import type { ProfileUpdateResponse } from '@minside/domain';
import { useIdentity } from '../auth/index.ts';
import { profileKeys } from './api/profile.ts';

/** After a change: the new profile into the cache, the new user into the session (the header and greeting follow). */
export function useProfileUpdate(): (result: ProfileUpdateResponse) => void {
  const queryClient = useQueryClient();
  const identity = useIdentity();
  return useCallback(
    (result: ProfileUpdateResponse) => {
      queryClient.setQueryData(profileKeys.profile, result.profile);
      identity.rememberUser(result.user);
    },
    [queryClient, identity],
  );
}
