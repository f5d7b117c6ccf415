import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, open, rename, writeFile } from 'node:fs/promises';
import { encodeBankFile, withLineEndings } from '@minside/bank-files';
import path from 'node:path';

/**
 * The bank files' folder (issue 21): every file in or out is archived under its SHA-256 before
 * anything is done with it, so none is ever lost; a file that fails to parse is copied to
 * `quarantine/` with its error beside it; claim files for the bank wait in `outbox/`. Writes go to
 * a temporary name, are flushed to disk and then renamed, so a crash never leaves half a file
 * under a real name. How the files reach the bank and come from it: transport.ts.
 */
export interface BankFileArchive {
  readonly root: string;
  /** Archives a received file; returns its SHA-256 (hex) and the archived path. */
  archiveIncoming(bytes: Uint8Array, fileName: string | null): Promise<{ sha256: string; archivedAt: string }>;
  /** Archives a received file from disk without reading it into memory; returns its SHA-256 and the archived path. */
  archiveIncomingFile(source: string): Promise<{ sha256: string; archivedAt: string }>;
  quarantine(bytes: Uint8Array | { path: string }, sha256: string, fileName: string | null, error: string): Promise<string>;
  /**
   * Writes an outgoing file, record by record (constant memory), to the outbox and the archive;
   * returns its SHA-256 and its path in the outbox. The same records give the same file.
   */
  writeOutgoingLines(fileName: string, records: AsyncIterable<string>): Promise<{ sha256: string; path: string }>;
  /** Where the archived copy of an outgoing file is kept. */
  archivedOutgoing(sha256: string, fileName: string): string;
}

/** Bytes of an outgoing file written per system call. */
const WRITE_BLOCK = 64 * 1024;

export function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The SHA-256 (hex) of a file on disk, read as a stream. */
export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A file name from outside reduced to what is safe in a path: no folders, no dots first. */
function safeName(fileName: string | null): string {
  const base = path
    .basename(fileName ?? 'file')
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '');
  return base.slice(0, 80) || 'file';
}

async function durableWrite(target: string, bytes: Uint8Array | string): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  // Its own temporary name: two instances writing the same file never trip over each other's half.
  const temporary = `${target}.${randomUUID()}.partial`;
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, target);
}

async function syncFile(target: string): Promise<void> {
  const handle = await open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export function createBankFileArchive(root: string): BankFileArchive {
  return {
    root,
    async archiveIncoming(bytes, fileName) {
      const sha256 = sha256Of(bytes);
      const archivedAt = path.join(root, 'archive', 'in', `${sha256}-${safeName(fileName)}`);
      await durableWrite(archivedAt, bytes);
      return { sha256, archivedAt };
    },
    async archiveIncomingFile(source) {
      const sha256 = await sha256OfFile(source);
      const archivedAt = path.join(root, 'archive', 'in', `${sha256}-${safeName(source)}`);
      await mkdir(path.dirname(archivedAt), { recursive: true });
      const temporary = `${archivedAt}.${randomUUID()}.partial`;
      await copyFile(source, temporary);
      // On disk before the import it vouches for commits: the inbox copy is deleted after that.
      await syncFile(temporary);
      await rename(temporary, archivedAt);
      return { sha256, archivedAt };
    },
    async quarantine(content, sha256, fileName, error) {
      const target = path.join(root, 'quarantine', `${sha256}-${safeName(fileName)}`);
      if (content instanceof Uint8Array) await durableWrite(target, content);
      else {
        await mkdir(path.dirname(target), { recursive: true });
        await copyFile(content.path, target);
        await syncFile(target);
      }
      await writeFile(`${target}.error.txt`, `${error}\n`);
      return target;
    },
    archivedOutgoing(sha256, fileName) {
      return path.join(root, 'archive', 'out', `${sha256}-${safeName(fileName)}`);
    },
    async writeOutgoingLines(fileName, records) {
      const name = safeName(fileName);
      const target = path.join(root, 'outbox', name);
      await mkdir(path.dirname(target), { recursive: true });
      // Its own temporary name: two instances writing the same file never trip over each other's half.
      const temporary = `${target}.${randomUUID()}.partial`;
      const hash = createHash('sha256');
      const handle = await open(temporary, 'w');
      try {
        // Records are 81 bytes: one write per record made a claim file of a million claims five
        // million system calls. Written in blocks of WRITE_BLOCK bytes instead (memory stays constant).
        let block: Uint8Array[] = [];
        let blockBytes = 0;
        for await (const chunk of withLineEndings(records)) {
          const bytes = encodeBankFile(chunk);
          hash.update(bytes);
          block.push(bytes);
          blockBytes += bytes.length;
          if (blockBytes >= WRITE_BLOCK) {
            await handle.write(Buffer.concat(block, blockBytes));
            block = [];
            blockBytes = 0;
          }
        }
        if (blockBytes > 0) await handle.write(Buffer.concat(block, blockBytes));
        await handle.sync();
      } finally {
        await handle.close();
      }
      const sha256 = hash.digest('hex');
      await mkdir(path.join(root, 'archive', 'out'), { recursive: true });
      await copyFile(temporary, path.join(root, 'archive', 'out', `${sha256}-${name}`));
      await rename(temporary, target);
      return { sha256, path: target };
    },
  };
}
