import { createContext, useContext } from 'react';
import { identity, type IdentityClient } from './identity.ts';

/** Components reach the identity client through context, so tests can hand them their own. */
const IdentityContext = createContext<IdentityClient>(identity);

export const IdentityProvider = IdentityContext.Provider;

export function useIdentity(): IdentityClient {
  return useContext(IdentityContext);
}
