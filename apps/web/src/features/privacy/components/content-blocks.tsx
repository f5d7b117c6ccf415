import { Fragment, type ReactNode } from 'react';
import { Link } from '../../../lib/router/index.ts';
import type { ContentBlock, InlineNode } from '@minside/domain';
import styles from './content-blocks.module.css';

/**
 * Renders the server's content tree (terms, policies, FAQ answers) as React elements. There
 * is no HTML string and no dangerouslySetInnerHTML: text is text, and links are only those
 * the server let through (portal paths, http(s), mailto, tel).
 */
function Inline({ nodes }: { nodes: InlineNode[] }): ReactNode {
  return nodes.map((node, index) => {
    switch (node.type) {
      case 'text':
        return <Fragment key={index}>{node.text}</Fragment>;
      case 'strong':
        return (
          <strong key={index}>
            <Inline nodes={node.children} />
          </strong>
        );
      case 'em':
        return (
          <em key={index}>
            <Inline nodes={node.children} />
          </em>
        );
      case 'code':
        return <code key={index}>{node.text}</code>;
      case 'break':
        return <br key={index} />;
      case 'link':
        return node.href.startsWith('/') ? (
          <Link key={index} to={node.href}>
            <Inline nodes={node.children} />
          </Link>
        ) : (
          <a key={index} href={node.href} {...(/^https?:/i.test(node.href) ? { rel: 'noopener noreferrer' } : {})}>
            <Inline nodes={node.children} />
          </a>
        );
    }
  });
}

export function ContentBlocks({ blocks }: { blocks: ContentBlock[] }) {
  return (
    <div className={styles.prose}>
      {blocks.map((block, index) => {
        switch (block.type) {
          case 'heading': {
            const Heading = `h${block.level}` as const;
            return (
              <Heading key={index} id={block.id}>
                <Inline nodes={block.children} />
              </Heading>
            );
          }
          case 'paragraph':
            return (
              <p key={index}>
                <Inline nodes={block.children} />
              </p>
            );
          case 'quote':
            return (
              <blockquote key={index}>
                <p>
                  <Inline nodes={block.children} />
                </p>
              </blockquote>
            );
          case 'list': {
            const List = block.ordered ? 'ol' : 'ul';
            return (
              <List key={index}>
                {block.items.map((item, itemIndex) => (
                  <li key={itemIndex}>
                    <Inline nodes={item} />
                  </li>
                ))}
              </List>
            );
          }
        }
      })}
    </div>
  );
}
