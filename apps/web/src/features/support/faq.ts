import { inlineText, type ContentBlock, type ContentDocument, type InlineNode } from '@minside/domain';

interface FaqEntry {
  id: string;
  question: string;
  /** The answer's text blocks, without the closing link. */
  answer: ContentBlock[];
  /** The self-service page that solves it: the answer's last paragraph when it is a single link. */
  link: { to: string; label: string } | null;
  /** Lower-cased question and answer, for the search box. */
  searchText: string;
}

export interface FaqTopic {
  id: string;
  heading: string;
  entries: FaqEntry[];
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'list':
      return block.items.map(inlineText).join(' ');
    default:
      return inlineText(block.children);
  }
}

/** A paragraph that is nothing but one link (whitespace around it allowed). */
function soleLink(block: ContentBlock): { to: string; label: string } | null {
  if (block.type !== 'paragraph') return null;
  const meaningful = block.children.filter((node: InlineNode) => !(node.type === 'text' && node.text.trim() === ''));
  const [only] = meaningful;
  return meaningful.length === 1 && only?.type === 'link' ? { to: only.href, label: inlineText(only.children) } : null;
}

/**
 * The customer-service FAQ from its Markdown (content/support/{group}/faq.md): each `##` is a
 * topic, each `###` a question, and what follows the answer; a closing paragraph that is one
 * link is the self-service page that solves it.
 */
export function faqFromDocument(document: ContentDocument): FaqTopic[] {
  const topics: FaqTopic[] = [];
  let entry: FaqEntry | null = null;
  for (const block of document.blocks) {
    if (block.type === 'heading' && block.level === 2) {
      topics.push({ id: block.id, heading: inlineText(block.children), entries: [] });
      entry = null;
    } else if (block.type === 'heading' && block.level === 3) {
      const topic = topics[topics.length - 1] ?? (topics[0] = { id: 'sporsmal', heading: 'Spørsmål', entries: [] });
      entry = { id: block.id, question: inlineText(block.children), answer: [], link: null, searchText: inlineText(block.children).toLowerCase() };
      topic.entries.push(entry);
    } else if (entry) {
      const link = soleLink(block);
      if (link) entry.link = link;
      else entry.answer.push(block);
      entry.searchText += ` ${blockText(block).toLowerCase()}`;
    }
  }
  return topics.filter((topic) => topic.entries.length > 0);
}

/** The topics with only the entries whose question or answer contains every word searched for. */
export function searchFaq(topics: FaqTopic[], query: string): FaqTopic[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return topics;
  return topics
    .map((topic) => ({ ...topic, entries: topic.entries.filter((entry) => words.every((word) => entry.searchText.includes(word) || topic.heading.toLowerCase().includes(word))) }))
    .filter((topic) => topic.entries.length > 0);
}
