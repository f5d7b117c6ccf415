import type { ReactNode } from 'react';
import ui from './ui.module.css';

export interface PanelProps {
  /** An h2 that names the panel (the section is labelled by it); `headingId` is its id. */
  heading?: ReactNode;
  headingId?: string;
  /** A brand edge on the left: a notice rather than content. */
  accent?: boolean;
  /** At most the width of a text column, for a panel that stands alone on its page. */
  narrow?: boolean;
  /** Buttons and links, in one row under the content. */
  actions?: ReactNode;
  children?: ReactNode;
}

/**
 * A boxed section: an optional heading, content and a row of actions. The result and notice
 * panels of the self-service pages (receipts, "not possible here", "changed your mind?").
 */
export function Panel({ heading, headingId, accent = false, narrow = false, actions, children }: PanelProps) {
  const className = [accent ? ui.panelAccent : ui.panel, narrow ? ui.narrow : ''].filter(Boolean).join(' ');
  return (
    <section className={className} aria-labelledby={heading ? headingId : undefined}>
      {heading ? (
        <h2 id={headingId} className={ui.panelHeading}>
          {heading}
        </h2>
      ) : null}
      {children}
      {actions ? <div className={ui.actions}>{actions}</div> : null}
    </section>
  );
}

/** A panel that says one thing, with where to go from there (e.g. why a change is not possible). */
export function NoticePanel({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <Panel accent narrow actions={actions}>
      <p className={ui.text}>{children}</p>
    </Panel>
  );
}
