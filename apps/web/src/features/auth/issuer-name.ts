import type { LoginIssuer } from '@minside/domain';

/**
 * What a way to log in is called on the page: the embedded provider's account (label
 * "kontoen din") is the e-mail address and password people type, so it is named so; any other
 * issuer by its label ("Vipps", or a configured group account's name). `name` starts a line,
 * `inSentence` stands inside one ("Logg inn med …", "Koble fra …").
 */
export function loginIssuerName(issuer: Pick<LoginIssuer, 'style' | 'label'>): { name: string; inSentence: string } {
  if (issuer.style === 'oidc' && issuer.label === 'kontoen din') return { name: 'E-post og passord', inSentence: 'e-post og passord' };
  return { name: issuer.label, inSentence: issuer.label };
}
