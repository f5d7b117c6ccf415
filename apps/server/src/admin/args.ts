import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { FastifyInstance } from 'fastify';
import type { Catalogue } from '@minside/titles';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';

/** Bad input to an operator command: printed as it is, and the command exits non-zero. */
export class AdminInputError extends Error {
  override name = 'AdminInputError';
}

/** What a command works with: the app as the server builds it, plus what the app does not expose. */
export interface AdminContext {
  app: FastifyInstance;
  db: Db;
  config: Config;
  catalogue: Catalogue;
  now: () => Date;
  /** One line of operator output. */
  print(line: string): void;
  /** Raw output (CSV), written as it is. */
  write(text: string): void;
}

/** One operator command. Returns the exit code (0 unless it says otherwise). */
export interface AdminCommand {
  usage: string;
  summary: string;
  run(context: AdminContext, args: string[]): Promise<number | void>;
}

/** parseArgs, with its English errors (unknown option, missing value) turned into the command's usage. */
type Options = NonNullable<ParseArgsConfig['options']>;
type Parsed<T extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>>;

export function parse<T extends Options>(args: string[], options: T, usage: string): Parsed<T> {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new AdminInputError(`${(error as Error).message}\nUsage: npm run admin -- ${usage}`);
  }
}
