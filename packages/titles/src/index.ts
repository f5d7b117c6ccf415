export { titleGroups } from './types.ts';
export type { Catalogue, KidCheckDigit, PublicationConfig, TitleBankSetup, TitleGroup, TitleGroupInfo, TitleLanguage } from './types.ts';
export { createCatalogue, defaultCatalogue, defaultCatalogueDocument, KID_LENGTH_MAX, KID_LENGTH_MIN } from './catalogue.ts';
export { isValidOrganizationNumber } from './organization-number.ts';
export { contactFields, diffCatalogues, diffLines, isEmptyDiff } from './diff.ts';
export type { CatalogueDiff, ContactField } from './diff.ts';
export { logoPathOf, resolveTitleCode, titleDomainOf } from './resolve.ts';
export type { ResolveOptions } from './resolve.ts';
export { isValidBankAccountNumber } from './bank-account.ts';
