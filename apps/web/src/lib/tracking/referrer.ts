/**
 * SPEC §2: article paths /i/{articleId}/, video paths /video/{videoId}/, /redirect/ and / are
 * recognised only to classify the referrer for analytics.
 */
export type ReferrerClass =
  | { kind: 'article'; articleId: string; url: string }
  | { kind: 'video'; videoId: string; url: string }
  | { kind: 'redirect'; url: string }
  | { kind: 'frontpage'; url: string }
  | { kind: 'other'; url: string }
  | { kind: 'none' };

const articlePath = /^\/i\/([^/]+)(?:\/|$)/;
const videoPath = /^\/video\/([^/]+)(?:\/|$)/;
const redirectPath = /^\/redirect(?:\/|$)/;

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function classifyReferrer(referrer: string | null | undefined): ReferrerClass {
  if (!referrer) return { kind: 'none' };
  let url: URL;
  try {
    url = new URL(referrer);
  } catch {
    return { kind: 'none' };
  }
  const href = url.href;
  const path = url.pathname;
  const article = articlePath.exec(path);
  if (article?.[1]) return { kind: 'article', articleId: decoded(article[1]), url: href };
  const video = videoPath.exec(path);
  if (video?.[1]) return { kind: 'video', videoId: decoded(video[1]), url: href };
  if (redirectPath.test(path)) return { kind: 'redirect', url: href };
  if (path === '/' || path === '') return { kind: 'frontpage', url: href };
  return { kind: 'other', url: href };
}
