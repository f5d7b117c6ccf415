export { titleGroups } from './types.ts';
export type { Catalogue, PublicationConfig, TitleGroup, TitleGroupInfo, TitleLanguage } from './types.ts';
export { createCatalogue, defaultCatalogue, isValidOrganizationNumber } from './catalogue.ts';
export { logoPathOf, resolveTitleCode, titleDomainOf } from './resolve.ts';
export type { ResolveOptions } from './resolve.ts';
