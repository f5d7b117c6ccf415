import { gatewayPath, pathTo } from '../../app/paths.ts';

export interface FaqEntry {
  id: string;
  question: string;
  answer: string;
  /** The self-service page that solves it. */
  link: { to: string; label: string };
}

export interface FaqTopic {
  id: string;
  heading: string;
  entries: FaqEntry[];
}

/** Frequently asked questions, grouped by topic; every answer points to the page that solves it. */
export function customerServiceFaq(identityProviderName: string): FaqTopic[] {
  return [
    {
      id: 'abonnement',
      heading: 'Abonnement',
      entries: [
        {
          id: 'endre-abonnement',
          question: 'Hvordan bytter jeg abonnement?',
          answer: 'Du kan selv bytte til et annet abonnement eller en annen betalingsperiode, for eksempel fra månedlig til årlig betaling.',
          link: { to: pathTo('changeSubscription'), label: 'Endre abonnement' },
        },
        {
          id: 'si-opp',
          question: 'Hvordan sier jeg opp abonnementet?',
          answer: 'Du kan si opp abonnementet på Min Side. Det løper ut perioden du allerede har betalt for.',
          link: { to: pathTo('cancelSubscription'), label: 'Avslutt abonnement' },
        },
        {
          id: 'angre',
          question: 'Jeg har sagt opp, men vil likevel fortsette. Hva gjør jeg?',
          answer: 'Så lenge abonnementet ikke har løpt ut, kan du angre oppsigelsen. Da fortsetter alt som før.',
          link: { to: pathTo('undoCancellation'), label: 'Angre oppsigelse' },
        },
      ],
    },
    {
      id: 'levering',
      heading: 'Levering',
      entries: [
        {
          id: 'ferie',
          question: 'Hvordan stopper jeg avisen mens jeg er på ferie?',
          answer: 'Du kan stoppe avisen eller få den sendt til en annen adresse i en periode. Endringen må registreres innen fristen dagen før levering.',
          link: { to: pathTo('deliveryChange'), label: 'Ferie og leveringsendring' },
        },
        {
          id: 'kom-ikke',
          question: 'Avisen kom ikke. Hva gjør jeg?',
          answer: 'Meld fra om leveringen, så følger vi det opp med avisbudet. Dette gjelder deg som har papiravis.',
          link: { to: pathTo('deliveryComplaint'), label: 'Meld fra om levering' },
        },
        {
          id: 'ny-adresse',
          question: 'Jeg har flyttet. Hvordan endrer jeg leveringsadressen?',
          answer: 'Legg inn den nye adressen din, så leverer vi avisen dit så snart endringen er registrert.',
          link: { to: pathTo('deliveryAddress'), label: 'Endre leveringsadresse' },
        },
      ],
    },
    {
      id: 'betaling',
      heading: 'Betaling',
      entries: [
        {
          id: 'fakturaer',
          question: 'Hvor finner jeg fakturaene mine?',
          answer: 'I fakturaoversikten ser du alle fakturaene dine, hva som er betalt og hva som gjenstår.',
          link: { to: pathTo('invoiceOverview'), label: 'Fakturaoversikt' },
        },
        {
          id: 'betalingsmetode',
          question: 'Hvordan bytter jeg betalingsmetode?',
          answer: 'Du kan velge mellom betalingskort og Vipps, og bytte når du vil.',
          link: { to: pathTo('changePaymentMethod'), label: 'Endre betalingsmetode' },
        },
        {
          id: 'nytt-kort',
          question: 'Kortet mitt er utløpt. Hvordan legger jeg inn et nytt?',
          answer: 'Registrer det nye betalingskortet, så brukes det ved neste trekk.',
          link: { to: pathTo('addPaymentCard'), label: 'Legg til betalingskort' },
        },
      ],
    },
    {
      id: 'digital-tilgang',
      heading: 'Digital tilgang',
      entries: [
        {
          id: 'familiedeling',
          question: 'Kan andre i husstanden lese med mitt abonnement?',
          answer: 'Med familiedeling kan du dele den digitale tilgangen gratis med dem du bor sammen med.',
          link: { to: pathTo('familySharing'), label: 'Familiedeling' },
        },
        {
          id: 'koble',
          question: 'Jeg har abonnement, men får ikke lest artiklene. Hvorfor?',
          answer: 'Abonnementet må være koblet til brukeren du logger inn med. Finn abonnementet ditt og koble det til.',
          link: { to: pathTo('connectSubscription'), label: 'Koble til abonnement' },
        },
        {
          id: 'profil',
          question: 'Hvordan endrer jeg navn, e-postadresse eller telefonnummer?',
          answer: 'Du kan oppdatere kontaktopplysningene dine selv.',
          link: { to: pathTo('editProfile'), label: 'Endre profil' },
        },
      ],
    },
    {
      id: 'personvern',
      heading: 'Personvern',
      entries: [
        {
          id: 'samtykker',
          question: 'Hvordan endrer jeg samtykkene mine?',
          answer: 'Du bestemmer selv hvilke samtykker du gir, og kan endre dem når som helst.',
          link: { to: pathTo('privacySettings'), label: 'Personverninnstillinger' },
        },
        {
          id: 'innsyn',
          question: 'Kan jeg få en kopi av dataene dere har om meg?',
          answer: 'Ja. Be om en kopi, så sender vi den til deg. Det kan ta opptil 30 dager.',
          link: { to: gatewayPath('dataTakeout', identityProviderName), label: 'Last ned dataene dine' },
        },
        {
          id: 'slett',
          question: 'Hvordan sletter jeg kontoen min?',
          answer: 'Du kan be om at kontoen slettes. Det kan ta opptil 30 dager, og betalingshistorikk må vi ta vare på i 5 år.',
          link: { to: gatewayPath('accountDeletion', identityProviderName), label: 'Slett kontoen din' },
        },
      ],
    },
  ];
}
