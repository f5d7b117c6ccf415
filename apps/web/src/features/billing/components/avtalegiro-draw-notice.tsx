import ui from '../../../components/ui.module.css';
import { formatKroner, formatLongDate } from '../format.ts';

/**
 * An open invoice the bank will draw with AvtaleGiro (the claim can no longer be withdrawn): there
 * is nothing to pay here, and paying another way would pay it twice.
 */
export function AvtaleGiroDrawNotice({ drawOn, drawOre }: { drawOn: string; drawOre: number }) {
  return (
    <section className={ui.panelAccent} aria-labelledby="trekkes-med-avtalegiro">
      <h2 id="trekkes-med-avtalegiro" className={ui.panelHeading}>
        Trekkes med AvtaleGiro {formatLongDate(drawOn)}
      </h2>
      <p className={ui.text}>
        Banken trekker {formatKroner(drawOre)} fra kontoen din på forfallsdatoen. Du trenger ikke gjøre noe, bare sørg for at det er dekning på kontoen. Betal ikke på annen måte, da blir fakturaen
        betalt to ganger.
      </p>
    </section>
  );
}
