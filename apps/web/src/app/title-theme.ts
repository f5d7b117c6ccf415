import { useEffect } from 'react';
import { brandPalette, type Title } from '@minside/domain';

export type ThemedTitle = Pick<Title, 'name' | 'pageUrl' | 'titleDomain' | 'brandColor'>;

const ROOT_CLASS_PREFIX = 'title-';

/** SPEC §1: "Min Side - " followed by the title name. */
function documentTitleFor(title: Pick<Title, 'name'>): string {
  return `Min Side - ${title.name}`;
}

/** SPEC §1: the favicon is the title's page URL plus /favicon.png. */
function faviconHrefFor(title: Pick<Title, 'pageUrl'>): string {
  return `${title.pageUrl.replace(/\/+$/, '')}/favicon.png`;
}

/** SPEC §1: the root element's class comes from the title domain ("adressa.no" → "title-adressa-no"). */
export function rootClassFor(title: Pick<Title, 'titleDomain'>): string {
  const slug = title.titleDomain
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return ROOT_CLASS_PREFIX + slug;
}

/**
 * What branding a title gives the document, as values: the server writes them into a page it
 * rendered (docs/decisions/032), and `applyTitleToDocument` sets the same in the browser.
 */
export function titleDocument(title: ThemedTitle) {
  return { title: documentTitleFor(title), favicon: faviconHrefFor(title), rootClass: rootClassFor(title), palette: brandPalette(title.brandColor) };
}

/** Brands the document for a title: page title, favicon, root class and brand colours. */
export function applyTitleToDocument(title: ThemedTitle, doc: Document = document): void {
  doc.title = documentTitleFor(title);

  let icon = doc.head.querySelector<HTMLLinkElement>('link[rel~="icon"]');
  if (!icon) {
    icon = doc.createElement('link');
    icon.rel = 'icon';
    doc.head.append(icon);
  }
  icon.type = 'image/png';
  icon.href = faviconHrefFor(title);

  const root = doc.documentElement;
  for (const name of Array.from(root.classList)) {
    if (name.startsWith(ROOT_CLASS_PREFIX)) root.classList.remove(name);
  }
  root.classList.add(rootClassFor(title));

  // CSSOM, not a style attribute in markup: allowed by the strict CSP.
  const palette = brandPalette(title.brandColor);
  root.style.setProperty('--brand', palette.brand);
  root.style.setProperty('--on-brand', palette.onBrand);
  root.style.setProperty('--brand-ink', palette.brandInk);
}

/** Keeps the document branded for the current title; re-applies whenever the title state changes. */
export function useTitleTheme(title: ThemedTitle): void {
  const { name, pageUrl, titleDomain, brandColor } = title;
  useEffect(() => {
    applyTitleToDocument({ name, pageUrl, titleDomain, brandColor });
  }, [name, pageUrl, titleDomain, brandColor]);
}
