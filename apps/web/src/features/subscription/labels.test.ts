import { describe, expect, it } from 'vitest';
import { selfServiceTasks } from '@minside/domain';
import { taskGroups, taskLinks } from './labels.ts';

// Issue 25.10: every shortcut of the home page sits in exactly one of its groups, so a task
// added to taskLinks cannot vanish from the page for want of a heading.
describe('the home page task groups', () => {
  it('hold every task that has a link, once', () => {
    const grouped = taskGroups.flatMap((group) => group.tasks);
    const linked = selfServiceTasks.filter((task) => taskLinks[task]);
    expect([...grouped].sort()).toEqual([...linked].sort());
    expect(new Set(grouped).size).toBe(grouped.length);
  });

  it('are the five headings, in order', () => {
    expect(taskGroups.map((group) => group.heading)).toEqual(['Levering', 'Betaling', 'Abonnement', 'Deling', 'Personvern']);
  });
});
