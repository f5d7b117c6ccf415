// React Aria on Preact (docs/decisions/021): its keyboard handling needs the event hook of
// preact-events.ts, and its pressable style must come from our stylesheet (react-aria-styles.ts, the
// CSP). Both are installed when this module is evaluated, so before any widget that takes React Aria
// from here renders, and they load only with the pages that have such a widget, not with the home
// page (issue 27). ESLint sends every import of React Aria here.
import './preact-events.ts';
import './react-aria-styles.ts';

export * from 'react-aria-components';
