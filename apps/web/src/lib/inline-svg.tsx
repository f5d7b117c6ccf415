import { useEffect, type ReactNode } from 'react';
import { queryOptions, useQuery } from './query/index.ts';

function svgQueryOptions(src: string, decorative: boolean) {
  return queryOptions({
    queryKey: ['svg', src, decorative] as const,
    // The loader's module when a graphic is first fetched: a page the server rendered has its graphics inline already.
    queryFn: ({ signal }) => import('./load-svg.ts').then(({ loadSvg }) => loadSvg(src, { signal, decorative })),
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });
}

export interface InlineSvgProps {
  src: string;
  className?: string;
  /** Shown instead of the graphic when it cannot be loaded. */
  fallback?: ReactNode;
  /** Hide the SVG from assistive technology; give its container an accessible name. */
  decorative?: boolean;
}

/**
 * Fetches an SVG by URL and inlines it (so it can inherit colours and scale crisply).
 * The markup is sanitised by `loadSvg`; on error the fallback is rendered and the error logged.
 */
export function InlineSvg({ src, className, fallback = null, decorative = false }: InlineSvgProps) {
  const { data, error, isPending } = useQuery(svgQueryOptions(src, decorative));

  useEffect(() => {
    if (error) console.error(`${error.message}: ${src}`);
  }, [error, src]);

  if (isPending) return <span className={className} />;
  if (!data) return <>{fallback}</>;
  // The markup comes from prepareSvg (prepare-svg.ts): scripts, handlers and javascript: links removed.
  return <span className={className} dangerouslySetInnerHTML={{ __html: data }} />;
}
