// CI detection (issue 12, item 5): the CI variable decides when it is set, else a CI provider's own
// variable (GITHUB_ACTIONS, GITLAB_CI, …) means CI, so `check` never writes a missing golden there.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ciFromEnv } from '../../src/cli/check/options.js';
import { TempRepo } from './check-support.js';

describe('ciFromEnv', () => {
  it('keeps the CI variable semantics', () => {
    expect(ciFromEnv({})).toBe(false);
    for (const off of ['', 'false', '0']) expect(ciFromEnv({ CI: off }), off).toBe(false);
    for (const on of ['true', '1', 'yes', 'woodpecker']) expect(ciFromEnv({ CI: on }), on).toBe(true);
  });

  it('detects the major providers without CI', () => {
    const providers: Record<string, string>[] = [
      { GITHUB_ACTIONS: 'true' },
      { GITLAB_CI: 'true' },
      { BUILDKITE: 'true' },
      { CIRCLECI: 'true' },
      { TRAVIS: 'true' },
      { JENKINS_URL: 'https://jenkins.example.org/' },
      { TF_BUILD: 'True' },
      { BITBUCKET_BUILD_NUMBER: '42' },
      { TEAMCITY_VERSION: '2024.1' },
      { CODEBUILD_BUILD_ID: 'project:1234' },
      { DRONE: 'true' },
      { APPVEYOR: 'True' },
      { CIRRUS_CI: 'true' },
      { SEMAPHORE: 'true' },
    ];
    for (const env of providers) expect(ciFromEnv(env), JSON.stringify(env)).toBe(true);
  });

  it('lets CI=false or CI=0 opt out even on a provider', () => {
    expect(ciFromEnv({ CI: 'false', GITHUB_ACTIONS: 'true' })).toBe(false);
    expect(ciFromEnv({ CI: '0', GITLAB_CI: 'true' })).toBe(false);
    // An empty CI is unset: the provider still counts.
    expect(ciFromEnv({ CI: '', GITHUB_ACTIONS: 'true' })).toBe(true);
  });

  it('ignores a provider variable that is empty or false', () => {
    expect(ciFromEnv({ GITHUB_ACTIONS: '' })).toBe(false);
    expect(ciFromEnv({ GITHUB_ACTIONS: 'false' })).toBe(false);
    expect(ciFromEnv({ HOME: '/home/dev', PATH: '/usr/bin' })).toBe(false);
  });
});

describe('check on GitHub Actions without CI', () => {
  let repo: TempRepo;
  beforeEach(() => {
    repo = new TempRepo();
  });
  afterEach(() => {
    repo.remove();
  });

  it('fails a missing golden and writes nothing', async () => {
    const { run, report } = await repo.checkJson(['--policy', 'policy.yml', 'transcripts'], {
      GITHUB_ACTIONS: 'true',
    });
    expect(report.ci).toBe(true);
    expect(run.code).toBe(1);
    expect(repo.tree()).toEqual({});
  });

  it('still writes it when CI=false opts out', async () => {
    const { run, report } = await repo.checkJson(['--policy', 'policy.yml', 'transcripts'], {
      GITHUB_ACTIONS: 'true',
      CI: 'false',
    });
    expect(report.ci).toBe(false);
    expect(Object.keys(repo.tree()).length).toBeGreaterThan(0);
    expect(run.code).not.toBe(2);
  });
});
