import { describe, expect, it } from 'vitest';
import type { ContentDocument } from '@minside/domain';
import { faqFromDocument, searchFaq } from './faq.ts';

const text = (value: string) => ({ type: 'text' as const, text: value });
const document: ContentDocument = {
  title: 'Vanlige spørsmål',
  group: 'default',
  updatedAt: '2026-03-02T10:00:00.000Z',
  blocks: [
    { type: 'heading', level: 2, id: 'levering', children: [text('Levering')] },
    { type: 'heading', level: 3, id: 'ferie', children: [text('Hvordan stopper jeg avisen i ferien?')] },
    { type: 'paragraph', children: [text('Registrer en ferie­stopp innen fristen.')] },
    { type: 'paragraph', children: [{ type: 'link', href: '/endre-avislevering', children: [text('Ferie og leveringsendring')] }] },
    { type: 'heading', level: 2, id: 'betaling', children: [text('Betaling')] },
    { type: 'heading', level: 3, id: 'faktura', children: [text('Hvor finner jeg fakturaene?')] },
    { type: 'paragraph', children: [text('I fakturaoversikten, se '), { type: 'link', href: '/fakturaoversikt', children: [text('her')] }] },
  ],
};

describe('faqFromDocument', () => {
  it('makes topics of ## and questions of ###, and a closing lone link the self-service link', () => {
    const topics = faqFromDocument(document);
    expect(topics.map((topic) => [topic.heading, topic.entries.map((entry) => entry.question)])).toEqual([
      ['Levering', ['Hvordan stopper jeg avisen i ferien?']],
      ['Betaling', ['Hvor finner jeg fakturaene?']],
    ]);
    expect(topics[0]?.entries[0]?.link).toEqual({ to: '/endre-avislevering', label: 'Ferie og leveringsendring' });
    expect(topics[0]?.entries[0]?.answer).toHaveLength(1);
    // A link inside a sentence stays part of the answer.
    expect(topics[1]?.entries[0]?.link).toBeNull();
    expect(topics[1]?.entries[0]?.answer).toHaveLength(1);
  });
});

describe('searchFaq', () => {
  const topics = faqFromDocument(document);
  it('keeps entries whose question, answer or topic has every word, ignoring case', () => {
    expect(searchFaq(topics, 'FERIE').flatMap((topic) => topic.entries.map((entry) => entry.id))).toEqual(['ferie']);
    expect(searchFaq(topics, 'betaling faktura').flatMap((topic) => topic.entries.map((entry) => entry.id))).toEqual(['faktura']);
    expect(searchFaq(topics, 'ferie faktura')).toEqual([]);
    expect(searchFaq(topics, '   ')).toBe(topics);
  });
});
