// `omni analytics trending|detach` as an operator runs them (the real CLI, on an embedded DATA_DIR).
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { migratedDataDir, removeTempDirs, runCli, stopChildren } from '../support/processes.ts';

afterEach(stopChildren);
afterAll(removeTempDirs);

describe('omni analytics', () => {
  it('trending --date runs a day for one tenant or all; detach --before detaches; bad values exit 1, missing ones 2', async () => {
    const dataDir = await migratedDataDir(['shop']);
    const env = { DATA_DIR: dataDir };
    const one = await runCli(['analytics', 'trending', '--date', '2025-06-10', 'shop'], env);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toContain('shop: 0 trending item records for 2025-06-10.');
    const all = await runCli(['analytics', 'trending', '--date', '2025-06-10'], env);
    expect(all.stdout).toContain('0 trending item records for 2025-06-10 over 1 tenants.');
    const detach = await runCli(['analytics', 'detach', '--before', '2020-01'], env);
    expect(detach.code, detach.stderr).toBe(0);
    expect(detach.stdout).toContain('No analytics partition ends before that month.');
    const bad = await runCli(['analytics', 'detach', '--before', '2020-1'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--before must be a month');
    // Without --date the command line does not fit: its usage, exit 2.
    const missing = await runCli(['analytics', 'trending', 'shop'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('analytics trending --date YYYY-MM-DD');
  }, 120_000);
});
