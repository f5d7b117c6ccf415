/**
 * How an issuer names a person's claims (OIDC_CLAIMS, OIDC2_CLAIMS): standard OpenID Connect, or
 * Vipps Login's names and verification (identity/claims.ts maps each; ADR 028).
 */
export const claimProfiles = ['oidc', 'vipps'] as const;
export type ClaimProfile = (typeof claimProfiles)[number];
