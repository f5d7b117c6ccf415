import { useQuery } from '../../../lib/query/index.ts';
import type { LegalPage } from '@minside/domain';
import { pages, type PageKey } from '../../../app/paths.ts';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { useTitle } from '../../titles/index.ts';
import { contentQueryOptions } from '../api/privacy.ts';
import { formatDate } from '../format.ts';
import { ContentBlocks } from './content-blocks.tsx';

/** A terms or policy page: the Markdown of the title's group (or the default), as an article. */
export function LegalDocumentPage({ pageKey, document }: { pageKey: PageKey; document: LegalPage }) {
  const title = useTitle();
  const query = useQuery(contentQueryOptions('legal', document, title.titleCode));
  const route = pages[pageKey];

  return (
    <Page title={query.data?.title || route.title}>
      <article aria-busy={query.isPending}>
        {query.isPending ? <p className={ui.muted}>Henter teksten …</p> : null}
        <ErrorAlert error={query.error} fallback="Vi fikk ikke hentet teksten. Prøv igjen om litt." />
        {query.data ? (
          <>
            <ContentBlocks blocks={query.data.blocks} />
            <p className={`${ui.muted} ${ui.small}`}>Sist oppdatert {formatDate(query.data.updatedAt)}.</p>
          </>
        ) : null}
      </article>
    </Page>
  );
}
