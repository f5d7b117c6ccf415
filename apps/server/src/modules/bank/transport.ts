import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import SftpClient from 'ssh2-sftp-client';
import type { BankSftpConfig } from '../../config.ts';

/**
 * How bank files travel between the portal and Nets (issue 21). Both transports work through the
 * local folders of BANK_FILES_DIR, so a file is always on our disk before anything is done with it:
 *
 * - `inbox/`: files from the bank wait here to be imported. With the local transport (the
 *   default) a person or another tool drops them here; with SFTP each remote file is downloaded
 *   here first (a temporary name, flushed to disk, then renamed). A file leaves the inbox, and
 *   the remote folder, only after it was archived and imported (or found a duplicate) or
 *   quarantined: a crash at any point leaves it to be read again, and the import is idempotent.
 * - `outbox/`: claim files archive.ts wrote for the bank. The local transport hands them over
 *   where they are; SFTP uploads each under a temporary name and renames it, so Nets never picks
 *   up half a file. Delivered files move to `sent/` (exchange.ts).
 */
interface IncomingBankFile {
  /** The file's name at the bank (and in the inbox). */
  name: string;
  /** The local copy to import from. */
  path: string;
}

interface BankTransportSession {
  /**
   * Brings the bank's new files into the inbox; answers every file waiting there, by name, and
   * the bank's files that could not be fetched this time (they stay at the bank for the next exchange).
   */
  receive(): Promise<{ files: IncomingBankFile[]; failed: string[] }>;
  /** The file is archived and imported, a duplicate, or quarantined: removes it at the bank and from the inbox. */
  acknowledge(file: IncomingBankFile): Promise<void>;
  /** Delivers one outgoing file (its local path, the name the bank sees). */
  send(localPath: string, name: string): Promise<void>;
  close(): Promise<void>;
}

export interface BankTransport {
  readonly kind: 'local' | 'sftp';
  /** Where the files go, for logs: the inbox folder, or sftp://user@host:port. */
  readonly description: string;
  open(): Promise<BankTransportSession>;
}

interface TransportLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** Temporary and hidden names (ours or a half-written upload by someone else) are never files to import or send. */
function isTransferName(name: string): boolean {
  return !name.startsWith('.') && !name.endsWith('.partial') && name === path.basename(name);
}

/** The regular files of a local folder, by name (none when it does not exist yet). */
export async function filesIn(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return entries
    .filter((entry) => entry.isFile() && isTransferName(entry.name))
    .map((entry) => entry.name)
    .sort();
}

/** Flushes a file and then its folder entry to disk. */
async function syncPath(target: string): Promise<void> {
  const handle = await open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncFolder(folder: string): Promise<void> {
  // Not every file system lets a folder be opened for fsync; the rename is then as durable as it gets.
  await syncPath(folder).catch(() => undefined);
}

async function localInbox(inbox: string): Promise<IncomingBankFile[]> {
  return (await filesIn(inbox)).map((name) => ({ name, path: path.join(inbox, name) }));
}

/** The default: files come and go through BANK_FILES_DIR's folders. */
export function createLocalTransport(root: string): BankTransport {
  const inbox = path.join(root, 'inbox');
  return {
    kind: 'local',
    description: inbox,
    async open() {
      await mkdir(inbox, { recursive: true });
      return {
        receive: async () => ({ files: await localInbox(inbox), failed: [] }),
        async acknowledge(file) {
          // The archive (archive/in/<sha256>-<name>) or quarantine/ holds the copy now.
          await rm(file.path, { force: true });
        },
        // The outbox is the hand-over point: nothing to carry.
        async send() {},
        async close() {},
      };
    },
  };
}

/** The SHA-256 fingerprint OpenSSH prints (`SHA256:…`), without the prefix and padding. */
function hostKeyFingerprint(key: Buffer): string {
  return createHash('sha256').update(key).digest('base64').replace(/=+$/, '');
}

export interface SftpTransportOptions {
  root: string;
  sftp: BankSftpConfig;
  /** Production never connects without verifying the server's host key. */
  production: boolean;
  log: TransportLog;
}

/** Nets' SFTP server: download to the inbox, upload from the outbox. */
export function createSftpTransport({ root, sftp: config, production, log }: SftpTransportOptions): BankTransport {
  const inbox = path.join(root, 'inbox');
  const where = `sftp://${config.username}@${config.host}:${config.port}`;

  async function connect(): Promise<SftpClient> {
    if (!config.hostKeySha256 && production) {
      throw new Error(`Refusing to connect to ${where}: BANK_SFTP_HOST_KEY_SHA256 is not set, and production never trusts the bank's server unverified`);
    }
    let privateKey: Buffer;
    try {
      privateKey = await readFile(config.privateKeyFile);
    } catch (error) {
      throw new Error(`BANK_SFTP_PRIVATE_KEY_FILE ${config.privateKeyFile} cannot be read: ${(error as Error).message}`, { cause: error });
    }
    const client = new SftpClient('bank', {
      // Errors outside a call (the server hung up between two) are logged; the next call fails with its own error.
      error: (error) => log.warn({ err: error, server: where }, 'bank SFTP connection error'),
      end: () => undefined,
      close: () => undefined,
    });
    let offered: string | undefined;
    try {
      await client.connect({
        host: config.host,
        port: config.port,
        username: config.username,
        privateKey,
        readyTimeout: 20_000,
        hostVerifier: (key: Buffer) => {
          offered = hostKeyFingerprint(key);
          if (config.hostKeySha256) return offered === config.hostKeySha256;
          log.warn({ server: where, hostKey: `SHA256:${offered}` }, 'bank SFTP host key not verified: set BANK_SFTP_HOST_KEY_SHA256 (required in production)');
          return true;
        },
      });
    } catch (error) {
      await client.end().catch(() => undefined);
      if (config.hostKeySha256 && offered && offered !== config.hostKeySha256) {
        throw new Error(
          `The bank's SFTP server ${where} offered host key SHA256:${offered}, not BANK_SFTP_HOST_KEY_SHA256 (SHA256:${config.hostKeySha256}): refused to connect, nothing was sent or received`,
          { cause: error },
        );
      }
      throw new Error(`Could not connect to the bank's SFTP server ${where}: ${(error as Error).message}`, { cause: error });
    }
    return client;
  }

  return {
    kind: 'sftp',
    description: where,
    async open() {
      await mkdir(inbox, { recursive: true });
      const client = await connect();
      /** Names downloaded in this session: the remote copy is removed once the local one is done with. */
      const remote = new Map<string, string>();

      async function download(name: string, size: number): Promise<void> {
        const remotePath = path.posix.join(config.inbox, name);
        const target = path.join(inbox, name);
        const temporary = path.join(inbox, `.${name}.${randomUUID()}.partial`);
        try {
          await client.get(remotePath, temporary);
          await syncPath(temporary);
          const local = (await stat(temporary)).size;
          if (local !== size) throw new Error(`downloaded ${local} bytes of ${remotePath}, the server listed ${size}`);
          await rename(temporary, target);
          await syncFolder(inbox);
        } catch (error) {
          await rm(temporary, { force: true });
          throw error;
        }
      }

      return {
        async receive() {
          const listed = await client.list(config.inbox);
          const failed: string[] = [];
          for (const entry of listed.filter((file) => file.type === '-').sort((a, b) => a.name.localeCompare(b.name))) {
            if (!isTransferName(entry.name)) continue;
            try {
              await download(entry.name, entry.size);
              remote.set(entry.name, path.posix.join(config.inbox, entry.name));
            } catch (error) {
              // One file that will not come must not hold back the others.
              failed.push(entry.name);
              log.error({ err: error, fileName: entry.name, server: where }, 'bank file could not be downloaded: it stays on the server for the next exchange');
            }
          }
          return { files: await localInbox(inbox), failed };
        },
        async acknowledge(file) {
          const remotePath = remote.get(file.name);
          // Remote first: should we stop between the two, the next exchange finds only the local copy (a duplicate, or quarantined again).
          if (remotePath) await client.delete(remotePath, true);
          remote.delete(file.name);
          await rm(file.path, { force: true });
        },
        async send(localPath, name) {
          const target = path.posix.join(config.outbox, name);
          const size = (await stat(localPath)).size;
          const there = await client.exists(target);
          if (there) {
            // An earlier exchange uploaded and renamed it, then stopped before moving it to sent/.
            if (there === '-' && (await client.stat(target)).size === size) {
              log.info({ fileName: name, server: where }, 'bank file already delivered: not sent again');
              return;
            }
            throw new Error(`${where}${target} already exists with other content: not overwritten`);
          }
          const temporary = path.posix.join(config.outbox, `.${name}.${randomUUID()}.partial`);
          try {
            await client.put(localPath, temporary);
            const uploaded = (await client.stat(temporary)).size;
            if (uploaded !== size) throw new Error(`uploaded ${uploaded} bytes of ${name}, expected ${size}`);
            await client.rename(temporary, target);
          } catch (error) {
            await client.delete(temporary, true).catch(() => undefined);
            throw error;
          }
        },
        async close() {
          await client.end().catch(() => undefined);
        },
      };
    },
  };
}

/** SFTP when BANK_SFTP_URL is set, else the local folders. */
export function createBankTransport({ sftp, ...options }: Omit<SftpTransportOptions, 'sftp'> & { sftp: BankSftpConfig | undefined }): BankTransport {
  return sftp ? createSftpTransport({ ...options, sftp }) : createLocalTransport(options.root);
}
