export { titleGroups } from './types.ts';
export type { Catalogue, PublicationConfig, TitleGroup, TitleGroupInfo, TitleLanguage } from './types.ts';
export { createCatalogue, defaultCatalogue, defaultCatalogueDocument, isValidOrganizationNumber } from './catalogue.ts';
export { contactFields, diffCatalogues, diffLines, isEmptyDiff } from './diff.ts';
export type { CatalogueDiff, ContactField } from './diff.ts';
export { logoPathOf, resolveTitleCode, titleDomainOf } from './resolve.ts';
export type { ResolveOptions } from './resolve.ts';
