import type { MaintenanceTitle, Title } from '@minside/domain';
import type { QueryClient } from '../lib/query/index.ts';
import { maintenanceQueryOptions, titleCodeQueryOptions, titleQueryOptions } from '../features/titles/index.ts';

export const adresseavisen: Title = {
  titleCode: 'ADR',
  titleDomain: 'adressa.no',
  pageUrl: 'https://www.adressa.no',
  name: 'Adresseavisen',
  customerCenterPhoneNumber: '72 50 00 00',
  customerCenterEmail: 'kundesenter@adressa.no',
  organizationNumber: '962806112',
  spidCredential: { clientId: 'minside' },
  minsideUrl: 'https://minside.adressa.no',
  brandColor: '#00539f',
  groupName: 'Adresseavisen-gruppen',
  language: 'nb',
  logoPath: '/logos/adressa.no.svg',
  contactIsPlaceholder: true,
  identityProviderName: 'spid',
};

export const varden: Title = {
  ...adresseavisen,
  titleCode: 'VAR',
  titleDomain: 'varden.no',
  pageUrl: 'https://www.varden.no/',
  name: 'Varden',
  brandColor: '#d0021b',
  groupName: 'Polaris Media Sør',
};

/** Puts a resolved title and a maintenance status in the cache, as bootstrap does. */
export function seedTitle(queryClient: QueryClient, title: Title, maintenance = false): void {
  queryClient.setQueryData(titleCodeQueryOptions().queryKey, title.titleCode);
  queryClient.setQueryData(titleQueryOptions(title.titleCode).queryKey, title);
  const status: MaintenanceTitle = { titleCode: title.titleCode, name: title.name, maintenance, message: 'Vi oppgraderer Min Side.' };
  queryClient.setQueryData(maintenanceQueryOptions().queryKey, status);
}
