import { renderHook } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { adresseavisen, varden } from '../test/fixtures.ts';
import { applyTitleToDocument, rootClassFor, useTitleTheme, type ThemedTitle } from './title-theme.ts';

function icons(): HTMLLinkElement[] {
  return Array.from(document.head.querySelectorAll<HTMLLinkElement>('link[rel~="icon"]'));
}

afterEach(() => {
  document.head.innerHTML = '';
  document.documentElement.className = '';
  document.documentElement.removeAttribute('style');
  document.title = '';
});

describe('title theming (SPEC §1)', () => {
  it('sets the page title, favicon, root class and brand colour, and refreshes them when the title changes', () => {
    document.documentElement.classList.add('keep-me');
    const { rerender } = renderHook(({ title }: { title: ThemedTitle }) => useTitleTheme(title), { initialProps: { title: adresseavisen } });

    expect(document.title).toBe('Min Side - Adresseavisen');
    expect(icons().map((link) => link.getAttribute('href'))).toEqual(['https://www.adressa.no/favicon.png']);
    expect(document.documentElement.classList.contains('title-adressa-no')).toBe(true);
    expect(document.documentElement.style.getPropertyValue('--brand')).toBe('#00539f');

    rerender({ title: varden });

    expect(document.title).toBe('Min Side - Varden');
    // A trailing slash on the page URL does not double up.
    expect(icons().map((link) => link.getAttribute('href'))).toEqual(['https://www.varden.no/favicon.png']);
    expect(document.documentElement.classList.contains('title-varden-no')).toBe(true);
    expect(document.documentElement.classList.contains('title-adressa-no')).toBe(false);
    expect(document.documentElement.classList.contains('keep-me')).toBe(true);
    expect(document.documentElement.style.getPropertyValue('--brand')).toBe('#d0021b');
  });

  it('reuses the favicon link of index.html instead of adding a second one', () => {
    document.head.innerHTML = '<link rel="icon" href="data:,">';
    applyTitleToDocument(adresseavisen);
    expect(icons()).toHaveLength(1);
    expect(icons()[0]?.getAttribute('href')).toBe('https://www.adressa.no/favicon.png');
  });

  it('derives the root class from the title domain', () => {
    expect(rootClassFor({ titleDomain: 'adressa.no' })).toBe('title-adressa-no');
    expect(rootClassFor({ titleDomain: 'Bladet.Vesteraalen.no' })).toBe('title-bladet-vesteraalen-no');
  });
});
