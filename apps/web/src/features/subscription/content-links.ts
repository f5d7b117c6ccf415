import type { FeatureSet, Title } from '@minside/domain';
import { pathTo } from '../../app/paths.ts';

export interface ContentLink {
  key: string;
  title: string;
  text: string;
  href: string;
  /** A page of the portal (router link) rather than the newspaper's own site. */
  internal: boolean;
  action: string;
}

/**
 * What the subscription gives access to (issue 4 /mitt-innhold), per title feature set
 * (SPEC §3): the site, the e-paper, play/TV at the title's play base URL, the paper, family
 * sharing and the third-party bundle.
 */
export function contentLinks(features: FeatureSet, title: Pick<Title, 'name' | 'pageUrl' | 'playBaseUrl'>, canShare: boolean): ContentLink[] {
  const site = title.pageUrl.replace(/\/+$/, '');
  const links: ContentLink[] = [
    {
      key: 'site',
      title: `${title.name} på nett og i appen`,
      text: features.plusContent ? 'Alle saker, også plussakene, når du er logget inn.' : 'Nyhetene på nett og i appen.',
      href: site,
      internal: false,
      action: 'Les nyhetene',
    },
  ];
  if (features.ePaper) links.push({ key: 'epaper', title: 'eAvisen', text: 'Dagens avis som digital utgave, klar fra kvelden før.', href: `${site}/eavis/`, internal: false, action: 'Åpne eAvisen' });
  if (features.plusContent && title.playBaseUrl) {
    links.push({ key: 'play', title: `${title.name} TV`, text: 'Direktesendinger, sport og video.', href: title.playBaseUrl, internal: false, action: 'Se video og TV' });
  }
  if (features.paper)
    links.push({
      key: 'paper',
      title: 'Papiravisen',
      text: 'Levert på døra. Skal du bort, kan du stoppe eller flytte leveringen.',
      href: pathTo('deliveryChange'),
      internal: true,
      action: 'Ferie og leveringsendring',
    });
  if (features.familySharing && canShare)
    links.push({ key: 'family', title: 'Familiedeling', text: 'Del den digitale tilgangen gratis med dem du bor sammen med.', href: pathTo('familySharing'), internal: true, action: 'Del tilgangen' });
  if (features.thirdPartyBundle)
    links.push({
      key: 'bundle',
      title: 'Partnerfordel',
      text: 'En strømmetjeneste fra en av våre partnere er inkludert i abonnementet.',
      href: `${site}/fordeler/`,
      internal: false,
      action: 'Aktiver fordelen',
    });
  return links;
}
