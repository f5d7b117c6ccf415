import { useEffect, useId, useRef, useState, type MouseEvent } from 'react';
import { isPlainClick, NavLink, useLocation } from '../lib/router/index.ts';
import type { Title } from '@minside/domain';
import { authMessages, loginStartHref, returnTargetOf, useIdentity, useSessionUser } from '../features/auth/index.ts';
import { InlineSvg } from '../lib/inline-svg.tsx';
import { pathTo } from './paths.ts';
import styles from './header.module.css';

export interface HeaderProps {
  title: Pick<Title, 'titleCode' | 'name' | 'pageUrl' | 'logoPath'>;
}

export const SIGN_IN_FAILED = authMessages.loginNotStarted;
export const SIGN_OUT_FAILED = 'Vi fikk ikke logget deg ut. Prøv igjen.';

function navLinkClass({ isActive }: { isActive: boolean }): string | undefined {
  return isActive ? `${styles.navLink} ${styles.active}` : styles.navLink;
}

/** Whether the browser has popovers (Chrome 114, Safari 17, Firefox 125 and later). */
function supportsPopover(element: HTMLElement): boolean {
  return typeof element.showPopover === 'function';
}

/** header.module.css's breakpoint: from here the nav is inline in the bar, and the menu button hidden. */
const WIDE_LAYOUT = '(min-width: 48rem)';

function hidePopover(element: HTMLElement | null): void {
  if (element && supportsPopover(element) && element.matches(':popover-open')) element.hidePopover();
}

/**
 * SPEC §2 header: logo linking to the title's site, Min Side and Kundeservice, Logg inn or
 * Logg ut, and a hamburger that toggles the menu on narrow screens (a popover, so it works before the scripts
 * and without them).
 */
export function Header({ title }: HeaderProps) {
  const user = useSessionUser();
  const identity = useIdentity();
  const location = useLocation();
  const { pathname } = location;
  const [sessionError, setSessionError] = useState<string | null>(null);
  const menuId = useId();
  // Whether the button states `aria-expanded` itself. With popovers, the browser tells assistive
  // technology whether the menu is open, from the first paint: the button says so too once the menu
  // has opened, and not before, so that a fixed "false" from the server never contradicts an open
  // menu and hydration leaves the server's markup as it was. Without popovers, from the start.
  const [statesExpanded, setStatesExpanded] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const navRef = useRef<HTMLElement>(null);
  // The menu belongs to the page it was opened on: navigating closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  // The page the popover's events belong to, for the listener made once below.
  const pathnameRef = useRef(pathname);
  pathnameRef.current = pathname;

  // The menu is a popover (popovertarget): the browser opens and closes it, from the first paint and
  // without scripts, and closes it on Escape or a click elsewhere. The app only follows its state, and
  // closes it when the page changes or a login or logout fails. A browser without popovers (before
  // Safari 17) gets the same behaviour from the scripts below.
  useEffect(() => {
    const nav = navRef.current;
    if (!nav || !supportsPopover(nav)) {
      setStatesExpanded(true);
      return;
    }
    // Opened before the scripts ran: the state follows.
    if (nav.matches(':popover-open')) {
      setStatesExpanded(true);
      setOpenOn(pathnameRef.current);
    }
    const onToggle = (event: Event) => {
      setStatesExpanded(true);
      setOpenOn((event as ToggleEvent).newState === 'open' ? pathnameRef.current : null);
    };
    nav.addEventListener('toggle', onToggle);
    // A menu opened on a narrow window stays in the top layer, above the page, if the window is
    // widened, where the stylesheet shows the nav in the bar (header.module.css, 48rem): it closes.
    const wide = typeof window.matchMedia === 'function' ? window.matchMedia(WIDE_LAYOUT) : null;
    const onWidth = () => {
      if (wide?.matches) hidePopover(nav);
    };
    wide?.addEventListener('change', onWidth);
    return () => {
      nav.removeEventListener('toggle', onToggle);
      wide?.removeEventListener('change', onWidth);
    };
  }, []);

  // The page changed, or a login or logout failed (its message shows under the bar): the menu closes.
  const shownOn = useRef(pathname);
  useEffect(() => {
    if (shownOn.current === pathname) return;
    shownOn.current = pathname;
    hidePopover(navRef.current);
  }, [pathname]);
  useEffect(() => {
    if (!sessionError) return;
    hidePopover(navRef.current);
    setOpenOn(null);
  }, [sessionError]);

  useEffect(() => {
    if (!open || (navRef.current && supportsPopover(navRef.current))) return;
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && containerRef.current?.contains(event.target)) return;
      setOpenOn(null);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpenOn(null);
      buttonRef.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const toggleMenu = () => {
    // With popovers the browser toggles it (and the state follows its toggle event).
    if (navRef.current && supportsPopover(navRef.current)) return;
    setOpenOn(open ? null : pathname);
  };

  // Both leave the app when they succeed; they only come back here when they could not.
  const signIn = (event: MouseEvent<HTMLAnchorElement>) => {
    // Any other click follows the link: the server starts the same login (a new tab, say).
    if (!isPlainClick(event)) return;
    event.preventDefault();
    setSessionError(null);
    identity.login(returnTargetOf(location)).then(
      (loggedIn) => {
        if (!loggedIn) setSessionError(SIGN_IN_FAILED);
      },
      (error: unknown) => {
        console.error('The login could not be started', error);
        setSessionError(SIGN_IN_FAILED);
      },
    );
  };
  const signOut = () => {
    setSessionError(null);
    identity.logout().catch((error: unknown) => {
      console.error('The logout failed', error);
      setSessionError(SIGN_OUT_FAILED);
    });
  };

  return (
    <header className={styles.header}>
      <div className={styles.inner} ref={containerRef}>
        <a className={styles.logo} href={title.pageUrl} aria-label={title.name}>
          <InlineSvg src={title.logoPath} decorative className={styles.logoSvg} fallback={<span className={styles.logoText}>{title.name}</span>} />
        </a>

        <button ref={buttonRef} type="button" className={styles.menuButton} aria-expanded={statesExpanded ? open : undefined} aria-controls={menuId} popoverTarget={menuId} onClick={toggleMenu}>
          <span className={styles.menuIcon} aria-hidden="true" />
          Meny
        </button>

        <nav ref={navRef} id={menuId} popover="auto" aria-label="Hovedmeny" className={open ? `${styles.nav} ${styles.open}` : styles.nav}>
          <ul className={styles.links}>
            <li>
              <NavLink to={pathTo('home')} end className={navLinkClass}>
                Min Side
              </NavLink>
            </li>
            <li>
              <NavLink to={pathTo('customerService')} className={navLinkClass}>
                Kundeservice
              </NavLink>
            </li>
          </ul>
          {user ? (
            <button type="button" className={styles.sessionButton} onClick={signOut}>
              Logg ut
            </button>
          ) : (
            // A link the server follows too, so it works from the first paint, before the scripts (docs/decisions/032).
            // Its address names the path alone: the server renders a public page once for every query, and never
            // sees the hash. A plain click, once the scripts run, returns to the query and hash as well.
            // nofollow: a crawler following it would only start logins.
            <a className={`${styles.sessionButton} ${styles.signIn}`} href={loginStartHref(returnTargetOf({ pathname, search: '', hash: '' }), title.titleCode)} rel="nofollow" onClick={signIn}>
              Logg inn
            </a>
          )}
        </nav>
      </div>
      {sessionError ? (
        <p className={styles.sessionError} role="alert">
          {sessionError}
        </p>
      ) : null}
    </header>
  );
}
