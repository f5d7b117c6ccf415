import type { ReactNode } from 'react';
import ui from './ui.module.css';

/** Label–value pairs in two columns on wide screens (a receipt, the subscription, contact info). */
export function Facts({ children }: { children: ReactNode }) {
  return <dl className={ui.facts}>{children}</dl>;
}

export function Fact({ label, valueClassName, children }: { label: string; valueClassName?: string; children: ReactNode }) {
  return (
    <div className={ui.fact}>
      <dt>{label}</dt>
      <dd className={valueClassName}>{children}</dd>
    </div>
  );
}
