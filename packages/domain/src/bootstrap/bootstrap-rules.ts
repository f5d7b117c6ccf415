// The page's bootstrap block (docs/decisions/022): its element id and shape version. Kept
// apart from the schema (bootstrap.ts) so the web's start-up code takes no zod along for them.

/** The id of the `<script type="application/json">` element the server puts into index.html. */
export const BOOTSTRAP_ELEMENT_ID = 'minside-bootstrap';
/** Bumped when the shape changes: a page and a web build of different versions ignore the block. */
export const BOOTSTRAP_VERSION = 1;
