import { runAdminCli } from '../admin/cli.ts';

/**
 * `npm run delivery:export -- --title ADR --date 2026-12-01 [--out file.csv]`: the carrier feed
 * of one title and publication day as CSV (docs/delivery-feed.md), from whatever database the
 * configuration names. Stdout unless --out is given. The same as `npm run admin -- delivery-feed`.
 */
runAdminCli(['delivery-feed', ...process.argv.slice(2)]);
