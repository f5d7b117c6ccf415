/**
 * Bytes ↔ text ↔ lines. The files are ISO-8859-1: one byte per character, so a file can be
 * decoded chunk by chunk. `TextDecoder('latin1')` is not used on purpose: the WHATWG encoding
 * standard maps the label `latin1` to Windows-1252, which would turn 0x80 into `€`.
 *
 * Line endings: the reader accepts `\n` and `\r\n` (mixed, even) and one final line ending; the
 * writers yield bare 80-character records, and `bankFileText`/`withLineEndings` add `\n` by
 * default, as the example files of the `netsgiro` library do, with `\r\n` on request.
 */
import { BankFileError } from './errors.ts';
import { isPrintableLatin1 } from './fields.ts';
import type { Many } from './types.ts';

const LF = 0x0a;
const CR = 0x0d;

function invalidCharacter(line: number): BankFileError {
  return new BankFileError('INVALID_CHARACTER', line, 'record', 'ugyldig tegn (ikke ISO-8859-1)');
}

/** Decodes bytes of one chunk; `firstLine` is the line number the chunk starts on. */
function decodeChunk(bytes: Uint8Array, firstLine: number): { text: string; lines: number } {
  let line = firstLine;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b === LF) line++;
    else if (b !== CR && !isPrintableLatin1(b)) throw invalidCharacter(line);
  }
  let text = '';
  const step = 8192;
  for (let i = 0; i < bytes.length; i += step) {
    text += String.fromCharCode(...bytes.subarray(i, i + step));
  }
  return { text, lines: line - firstLine };
}

/**
 * ISO-8859-1 bytes → text. Refuses control bytes other than CR and LF, and 0x80–0x9F, with a
 * `BankFileError` (`INVALID_CHARACTER`) naming the line.
 */
export function decodeBankFile(bytes: Uint8Array): string {
  return decodeChunk(bytes, 1).text;
}

/**
 * Text → ISO-8859-1 bytes. Refuses characters outside printable ISO-8859-1 (CR and LF allowed),
 * e.g. `€`, `—` or an emoji, with a `BankFileError` (`INVALID_CHARACTER`) naming the line.
 */
export function encodeBankFile(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === LF) line++;
    else if (c !== CR && !isPrintableLatin1(c)) throw invalidCharacter(line);
    bytes[i] = c;
  }
  return bytes;
}

/**
 * Splits a whole text into lines for `readBankFile`: `\n` or `\r\n`, a final line ending allowed.
 */
export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Splits a stream of text chunks into lines (the chunks may cut lines and `\r\n` anywhere). */
export async function* linesFromText(chunks: Many<string>): AsyncGenerator<string, void, undefined> {
  let rest = '';
  for await (const chunk of chunks) {
    rest += chunk;
    let start = 0;
    let nl = rest.indexOf('\n', start);
    while (nl !== -1) {
      yield rest.slice(start, nl);
      start = nl + 1;
      nl = rest.indexOf('\n', start);
    }
    rest = rest.slice(start);
  }
  if (rest !== '') yield rest;
}

/**
 * Splits a stream of ISO-8859-1 byte chunks (e.g. a Node `ReadStream`) into lines, refusing bytes
 * outside printable ISO-8859-1 with the right line number. Constant memory.
 */
export async function* linesFromBytes(chunks: Many<Uint8Array>): AsyncGenerator<string, void, undefined> {
  let line = 1;
  async function* texts(): AsyncGenerator<string, void, undefined> {
    for await (const bytes of chunks) {
      const decoded = decodeChunk(bytes, line);
      line += decoded.lines;
      yield decoded.text;
    }
  }
  yield* linesFromText(texts());
}

export type LineEnding = '\n' | '\r\n';

/** Adds a line ending to every record (the last one too): chunks to write to a stream. */
export async function* withLineEndings(records: Many<string>, lineEnding: LineEnding = '\n'): AsyncGenerator<string, void, undefined> {
  for await (const record of records) yield record + lineEnding;
}

/** Collects records into the text of a file (for small files and tests). */
export async function bankFileText(records: Many<string>, lineEnding: LineEnding = '\n'): Promise<string> {
  const parts: string[] = [];
  for await (const record of records) parts.push(record);
  return parts.length === 0 ? '' : parts.join(lineEnding) + lineEnding;
}
