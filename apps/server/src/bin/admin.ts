import { runAdminCli } from '../admin/cli.ts';

/** `npm run admin -- <command>`: the operator commands of admin/commands.ts, against the configured database. */
runAdminCli(process.argv.slice(2));
