import './react-aria-styles.css';

/**
 * React Aria's usePress puts a `<style id="react-aria-pressable-style">` into `<head>` the first
 * time something pressable renders (buttons, the date picker's calendar). The CSP
 * (`style-src 'self'`, apps/server/src/plugins/security-headers.ts) refuses an inline style
 * element, so the browser blocked it and reported a violation on every page with one (first
 * seen on /endre-avislevering). The one rule it carries is in react-aria-styles.css, shipped
 * as part of our own stylesheet; an element with that id in `<head>` is how React Aria knows the
 * rule is there already and adds nothing. The e2e suite fails on any CSP violation
 * (e2e/fixtures.ts), so a React Aria release that injects something else shows up there.
 * Importing this module does it once; lib/react-aria.ts imports it with the widgets. (Not in the
 * server's render, which has no document: a server-rendered page's marker is added when its
 * scripts load, before React Aria's first press handler runs in the browser.)
 */
const PRESSABLE_STYLE_ID = 'react-aria-pressable-style';

function provideReactAriaStyles(doc: Document = document): void {
  if (doc.getElementById(PRESSABLE_STYLE_ID)) return;
  const marker = doc.createElement('meta');
  marker.id = PRESSABLE_STYLE_ID;
  marker.name = PRESSABLE_STYLE_ID;
  marker.content = 'in the stylesheet (src/lib/react-aria-styles.css)';
  doc.head.append(marker);
}

if (typeof document !== 'undefined') provideReactAriaStyles();
