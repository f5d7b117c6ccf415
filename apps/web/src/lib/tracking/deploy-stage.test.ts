import { describe, expect, it, vi } from 'vitest';
import { applyDeployStage, DEBUG_COOKIE, deployStageOf } from './deploy-stage.ts';

describe('SPEC §9 development hosts', () => {
  it.each(['localhost', 'adresseavisen.localhost', '127.0.0.1', '10.0.0.12', '[::1]', 'dev.minside.adressa.no', 'polarx.adressa.no', 'polary.adressa.no', 'minside.pm.test', 'adressapm.test'])(
    '%s is a development host: deployStage dev',
    (host) => {
      expect(deployStageOf(host)).toBe('dev');
    },
  );

  it.each(['minside.adressa.no', 'www.varden.no', 'devminside.adressa.no', 'minside.dev.adressa.no', 'pm.test.adressa.no'])('%s is not', (host) => {
    expect(deployStageOf(host)).toBe('pro');
  });

  it('sets the debug cookie on a development host only', () => {
    const setCookie = vi.fn();
    expect(applyDeployStage('dev.minside.adressa.no', setCookie)).toBe('dev');
    expect(setCookie).toHaveBeenCalledWith(DEBUG_COOKIE, 'true');
    setCookie.mockClear();
    expect(applyDeployStage('minside.adressa.no', setCookie)).toBe('pro');
    expect(setCookie).not.toHaveBeenCalled();
  });
});
