// The Norwegian names and descriptions of the consent purposes and permissions, and the consent
// pages' texts: for the consent dialog and the privacy pages, not the start-up code that only
// reads and writes the choice (consent-labels.ts; issue 27). consent.ts re-exports them.
import type { ConsentPermission, ConsentPurpose } from './consent-rules.ts';

export const consentPurposeLabels: Record<ConsentPurpose, { name: string; description: string }> = {
  necessary: {
    name: 'Nødvendige',
    description: 'Innlogging, sikkerhet og at siden virker. Disse kan ikke slås av.',
  },
  analytics: {
    name: 'Analyse',
    description: 'Statistikk over hvordan Min Side brukes, og feil- og ytelsesmåling, slik at vi kan gjøre tjenesten bedre.',
  },
  marketing: {
    name: 'Markedsføring',
    description: 'Tilbud og annonser som er relevante for deg, også fra samarbeidspartnere.',
  },
  personalisation: {
    name: 'Personlig tilpasning',
    description: 'Innhold og anbefalinger tilpasset det du leser og bruker.',
  },
};

export const consentPermissionLabels: Record<ConsentPermission, { name: string; description: string }> = {
  marketingEmail: { name: 'Tilbud på e-post', description: 'Vi sender deg tilbud og nyheter om abonnementet og arrangementer på e-post.' },
  marketingSms: { name: 'Tilbud på SMS', description: 'Vi sender deg tilbud og påminnelser på SMS.' },
  marketingPhone: { name: 'Tilbud på telefon', description: 'Vi kan ringe deg med tilbud om abonnement.' },
  personalisedContent: { name: 'Anbefalt innhold', description: 'Forsiden og anbefalingene tilpasses det du leser.' },
  personalisedNewsletter: { name: 'Tilpasset nyhetsbrev', description: 'Nyhetsbrevet ditt settes sammen etter interessene dine.' },
  researchSurveys: { name: 'Spørreundersøkelser', description: 'Vi kan invitere deg til spørreundersøkelser om avisen og lesevanene dine.' },
  userPanel: { name: 'Brukerpanel', description: 'Vi kan invitere deg til å teste nye tjenester før de lanseres.' },
};

/** The three consent pages: which permissions each asks about (SPEC §2 /samtykke1, /samtykke2, /samtykke3). */
export const consentPages = {
  1: { heading: 'Kontakt og tilbud', lead: 'Velg hvordan vi kan kontakte deg med tilbud.', permissions: ['marketingEmail', 'marketingSms', 'marketingPhone'] },
  2: { heading: 'Tilpasset innhold', lead: 'Velg om vi kan tilpasse innholdet til deg.', permissions: ['personalisedContent', 'personalisedNewsletter'] },
  3: { heading: 'Undersøkelser', lead: 'Velg om vi kan invitere deg til undersøkelser og tester.', permissions: ['researchSurveys', 'userPanel'] },
} as const satisfies Record<1 | 2 | 3, { heading: string; lead: string; permissions: readonly ConsentPermission[] }>;
export type ConsentPageNumber = keyof typeof consentPages;
