import { isDevelopmentHost } from '@minside/domain';

export type DeployStage = 'dev' | 'pro';

/** The debug cookie development hosts set (SPEC §9), read by the analytics tooling. */
export const DEBUG_COOKIE = 'minside_debug';

/** SPEC §9: localhost, IP addresses, dev./polarx./polary. hosts and *pm.test are development. */
export function deployStageOf(hostname: string): DeployStage {
  return isDevelopmentHost(hostname) ? 'dev' : 'pro';
}

/** Sets the debug cookie on a development host; returns the stage. */
export function applyDeployStage(hostname: string, setCookie: (name: string, value: string) => void): DeployStage {
  const stage = deployStageOf(hostname);
  if (stage === 'dev') setCookie(DEBUG_COOKIE, 'true');
  return stage;
}
