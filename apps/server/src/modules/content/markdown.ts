import { Lexer, type Token, type Tokens } from 'marked';
import { inlineText, isSafeContentHref, type ContentBlock, type InlineNode } from '@minside/domain';

/**
 * Markdown → the small tree of packages/domain/src/privacy/privacy.ts. marked only tokenises; we keep
 * the nodes we know (headings, paragraphs, lists, quotes, emphasis, links, code) and turn
 * everything else — raw HTML above all — into plain text or nothing. No HTML string is ever
 * produced, so the browser renders React elements and an operator's `<script>` stays text.
 */
export interface ParsedMarkdown {
  /** The first `# heading`, or '' when the file has none. */
  title: string;
  blocks: ContentBlock[];
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/æ/g, 'ae')
    .replace(/ø/g, 'o')
    .replace(/å/g, 'a')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'avsnitt';

function inline(tokens: Token[] | undefined): InlineNode[] {
  const nodes: InlineNode[] = [];
  const push = (node: InlineNode) => {
    const last = nodes[nodes.length - 1];
    if (node.type === 'text' && last?.type === 'text') last.text += node.text;
    else nodes.push(node);
  };
  for (const token of tokens ?? []) {
    switch (token.type) {
      case 'strong':
      case 'em':
        push({ type: token.type, children: inline((token as Tokens.Strong | Tokens.Em).tokens) });
        break;
      case 'codespan':
        push({ type: 'code', text: decode((token as Tokens.Codespan).text) });
        break;
      case 'br':
        push({ type: 'break' });
        break;
      case 'link': {
        const link = token as Tokens.Link;
        const children = inline(link.tokens);
        if (isSafeContentHref(link.href)) push({ type: 'link', href: link.href, children });
        else for (const child of children) push(child);
        break;
      }
      case 'text': {
        const text = token as Tokens.Text;
        if (text.tokens && text.tokens.length > 0) for (const child of inline(text.tokens)) push(child);
        else push({ type: 'text', text: decode(text.text) });
        break;
      }
      case 'del':
        for (const child of inline((token as Tokens.Del).tokens)) push(child);
        break;
      case 'escape':
        push({ type: 'text', text: decode((token as Tokens.Escape).text) });
        break;
      default:
        // html, image and anything new: shown as its literal text, never interpreted.
        if ('raw' in token && typeof token.raw === 'string') push({ type: 'text', text: token.raw });
    }
  }
  return nodes;
}

/** marked escapes &, <, > … in text tokens for HTML output; our nodes are text, so undo it. */
function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_match, entity: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[entity] ?? '');
}

export function parseMarkdown(source: string): ParsedMarkdown {
  let title = '';
  const blocks: ContentBlock[] = [];
  const ids = new Map<string, number>();
  const uniqueId = (text: string) => {
    const base = slug(text);
    const seen = ids.get(base) ?? 0;
    ids.set(base, seen + 1);
    return seen === 0 ? base : `${base}-${seen + 1}`;
  };

  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      switch (token.type) {
        case 'heading': {
          const heading = token as Tokens.Heading;
          const children = inline(heading.tokens);
          if (heading.depth === 1 && !title) {
            title = inlineText(children);
            break;
          }
          // The page's h1 is the title, so levels start at 2 and never skip past 4.
          const level = Math.min(Math.max(heading.depth, 2), 4) as 2 | 3 | 4;
          blocks.push({ type: 'heading', level, id: uniqueId(inlineText(children)), children });
          break;
        }
        case 'paragraph':
          blocks.push({ type: 'paragraph', children: inline((token as Tokens.Paragraph).tokens) });
          break;
        case 'list': {
          const list = token as Tokens.List;
          blocks.push({ type: 'list', ordered: list.ordered, items: list.items.map((item) => item.tokens.flatMap((child) => inline('tokens' in child && child.tokens ? child.tokens : [child]))) });
          break;
        }
        case 'blockquote': {
          const quote = token as Tokens.Blockquote;
          blocks.push({ type: 'quote', children: quote.tokens.flatMap((child) => inline('tokens' in child && child.tokens ? child.tokens : [child])) });
          break;
        }
        case 'code':
          blocks.push({ type: 'paragraph', children: [{ type: 'code', text: (token as Tokens.Code).text }] });
          break;
        case 'html':
        case 'table': {
          // Shown as the operator wrote it, as text: raw HTML is never passed on.
          const raw = token.raw.trim();
          if (raw) blocks.push({ type: 'paragraph', children: [{ type: 'text', text: raw }] });
          break;
        }
        default:
          break;
      }
    }
  };
  walk(Lexer.lex(source));
  return { title, blocks };
}
