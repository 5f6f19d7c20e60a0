// Non-PII strings of a developer's session, seeded, from many families (versions, SHAs, UUIDs,
// ports, line:col, timestamps, ids, hashes, test output, stack traces, …). None holds PII: any
// match in one is a false positive. Some families are look-alikes on purpose (a part number shaped
// like an SSN, a 10-digit order number after "number", a four-part version shaped like an IPv4).

import type { Negative } from './sample.js';
import type { Gen } from './values.js';

type Family = [name: string, make: (g: Gen) => string];

const PKGS = [
  'react',
  'lodash',
  'typescript',
  'vitest',
  'express',
  'zod',
  'eslint',
  'prettier',
  'next',
  'vite',
  'axios',
  'yaml',
];
const DIRS = ['src', 'src/core', 'src/cli', 'lib', 'test', 'packages/api/src', 'app/components'];

const v3 = (g: Gen) => `${g.int(0, 20)}.${g.int(0, 40)}.${g.int(0, 30)}`;
const file = (g: Gen) => `${g.pick(DIRS)}/${g.word()}.${g.pick(['ts', 'tsx', 'js', 'py', 'go', 'rs'])}`;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const time = (g: Gen) => `${pad(g.int(0, 23))}:${pad(g.int(0, 59))}:${pad(g.int(0, 59))}`;

const FAMILIES: Family[] = [
  ['version/semver', (g) => `bumped ${g.pick(PKGS)} from ${v3(g)} to ${v3(g)}`],
  [
    'version/four-part',
    (g) =>
      `${g.pick(['AssemblyVersion', 'FileVersion', 'version'])}: ${g.int(1, 9)}.${g.int(0, 9)}.${g.int(0, 9)}.${g.int(0, 9)}`,
  ],
  [
    'version/windows-build',
    (g) => `Microsoft Windows [Version 10.0.${g.pick([19041, 19045, 22621, 22631])}.${g.int(1, 4000)}]`,
  ],
  [
    'version/v-four-part',
    (g) => `released v${g.int(1, 9)}.${g.int(0, 20)}.${g.int(0, 20)}.${g.int(0, 99)} to the beta channel`,
  ],
  [
    'version/runtime',
    (g) =>
      `${g.pick(['node', 'npm', 'Python', 'go version go', 'rustc', 'pnpm'])} ${g.int(1, 22)}.${g.int(0, 20)}.${g.int(0, 20)}`,
  ],
  [
    'version/package-at',
    (g) => `added ${g.pick(PKGS)}@${v3(g)}, @types/${g.pick(PKGS)}@${v3(g)} and ${g.pick(PKGS)}@${v3(g)}`,
  ],
  [
    'version/semver-range',
    (g) =>
      `"${g.pick(PKGS)}": "${g.pick(['^', '~', '>=', ''])}${v3(g)}"${g.chance(0.3) ? ` || >=${g.int(18, 22)}.0.0 <${g.int(23, 25)}` : ''}`,
  ],
  [
    'version/docker-image',
    (g) =>
      `FROM node:${g.int(18, 22)}.${g.int(0, 20)}.${g.int(0, 9)}-${g.pick(['alpine', 'bookworm-slim', 'bullseye'])}@sha256:${g.hex(64)}`,
  ],
  ['git/short-sha-log', (g) => `${g.hex(7)} ${g.f.git.commitMessage()}`],
  ['git/full-sha', (g) => `HEAD is now at ${g.hex(40)} ${g.f.git.commitMessage()}`],
  [
    'git/diff-hunk',
    (g) =>
      `@@ -${g.int(1, 900)},${g.int(1, 30)} +${g.int(1, 900)},${g.int(1, 30)} @@ export function ${g.word()}(`,
  ],
  ['git/merge', (g) => `Merge pull request #${g.int(1, 9999)} from ${g.user()}/${g.word()}-${g.word()}`],
  ['id/uuid', (g) => `request_id=${g.f.string.uuid()} span_id=${g.hex(16)} trace_id=${g.hex(32)}`],
  [
    'id/uuid-json',
    (g) => JSON.stringify({ id: g.f.string.uuid(), parent_id: g.f.string.uuid(), kind: g.word() }),
  ],
  ['net/localhost-port', (g) => `  ➜  Local:   http://localhost:${g.int(3000, 9999)}/`],
  ['net/unspecified-port', (g) => `Listening on 0.0.0.0:${g.int(1024, 9999)}`],
  ['net/loopback', (g) => `curl http://127.0.0.1:${g.int(1024, 9999)}/healthz -> ${g.pick([200, 204])}`],
  [
    'code/line-col',
    (g) =>
      `${file(g)}:${g.int(1, 999)}:${g.int(1, 120)} - ${g.pick(['warning', 'error'])} ${g.word()} is defined but never used`,
  ],
  [
    'code/tsc-error',
    (g) =>
      `${file(g)}(${g.int(1, 999)},${g.int(1, 99)}): error TS${g.int(1000, 7999)}: Argument of type 'string' is not assignable to parameter of type 'number'.`,
  ],
  [
    'code/stack-trace',
    (g) =>
      `    at ${g.word()}${g.pick(['', 'Handler', 'Service'])}.${g.word()} (/home/dev/${g.word()}/${file(g)}:${g.int(1, 999)}:${g.int(1, 99)})`,
  ],
  [
    'code/python-traceback',
    (g) =>
      `  File "/usr/lib/python3.${g.int(8, 12)}/site-packages/${g.word()}/${g.word()}.py", line ${g.int(1, 2000)}, in ${g.word()}`,
  ],
  ['time/iso', (g) => `${g.iso()} ${g.pick(['INFO', 'DEBUG', 'WARN'])} ${g.word()}: ${g.f.hacker.phrase()}`],
  [
    'time/log-comma-ms',
    (g) => `${g.iso().slice(0, 10)} ${time(g)},${g.digits(3)} - ${g.word()} - INFO - done`,
  ],
  ['time/unix-seconds', (g) => `"created": ${g.unix()}, "updated": ${g.unix()}`],
  ['time/unix-ms', (g) => `ts=${g.unix()}${g.digits(3)} level=info msg="${g.word()} flushed"`],
  [
    'time/unix-json',
    (g) => JSON.stringify({ timestamp: g.unix() * 1000 + g.int(0, 999), exp: g.unix(), event: g.word() }),
  ],
  [
    'time/duration',
    (g) =>
      `Done in ${g.int(0, 99)}.${g.digits(2)}s (${g.int(1, 9999)}ms user, real 0m${g.int(0, 59)}.${g.digits(3)}s)`,
  ],
  ['time/clock', (g) => `[${time(g)}] Starting compilation in watch mode...`],
  [
    'size/bundle',
    (g) =>
      `dist/${g.word()}-${g.hex(8)}.js   ${g.int(1, 999)}.${g.digits(2)} kB │ gzip: ${g.int(1, 300)}.${g.digits(2)} kB`,
  ],
  ['size/bytes', (g) => `wrote ${g.int(1000, 99_999_999)} bytes to ${file(g)}`],
  [
    'css/colours',
    (g) =>
      `.${g.word()} { color: #${g.hex(6)}; background: #${g.hex(3)}; margin: ${g.int(0, 40)}px ${g.int(0, 40)}px; }`,
  ],
  [
    'css/transform',
    (g) =>
      `transform: translate(${g.int(0, 99)}.${g.digits(2)}px, ${g.int(0, 99)}.${g.digits(2)}px) scale(1.${g.digits(2)});`,
  ],
  [
    'lookalike/part-number',
    (g) =>
      `${g.pick(['part', 'SKU', 'P/N', 'Part No.'])} ${g.digits(3)}-${g.digits(2)}-${g.digits(4)} is back in stock`,
  ],
  [
    'lookalike/order-number',
    (g) =>
      `${g.pick(['order', 'ticket', 'build', 'invoice'])} number ${g.number(10)} was ${g.pick(['shipped', 'closed', 'promoted', 'paid'])}`,
  ],
  [
    'lookalike/bare-10-digits',
    (g) =>
      `${g.pick(['processed', 'skipped', 'hashed'])} ${g.number(10)} ${g.pick(['rows', 'items', 'keys'])}`,
  ],
  ['lookalike/id-list', (g) => `ids: [${g.number(10)}, ${g.number(11)}, ${g.number(10)}]`],
  ['lookalike/snowflake', (g) => `message_id=1${g.digits(18)} channel_id=1${g.digits(17)}`],
  ['lookalike/bigint-id', (g) => JSON.stringify({ id: `${g.int(2, 6)}${g.digits(15)}`, object: 'event' })],
  ['lookalike/aws-account', (g) => `arn:aws:iam::${g.digits(12)}:role/${g.word()}-ci`],
  [
    'lookalike/oid',
    (g) =>
      `OID ${g.pick(['1.3.6.1.4.1', '1.2.840.113549.1.1.11', '2.5.29.17', '2.5.4.3', '1.3.6.1.5.5.7.3.1', '2.16.840.1.101.3.4.2.1'])}${g.chance(0.5) ? `.${g.int(1, 99999)}` : ''}`,
  ],
  [
    'lookalike/version-table',
    (g) =>
      `| ${g.pick(PKGS)} | ${v3(g)} | ${v3(g)} | ${g.int(1, 9)}.${g.int(0, 9)}.${g.int(0, 9)}.${g.int(10, 99)} |`,
  ],
  [
    'lookalike/times-ipv6',
    (g) =>
      `${time(g)}:${pad(g.int(0, 59))} elapsed; std::${g.word()}<int>::${g.word()} and Foo::Bar::${g.word()}`,
  ],
  ['lookalike/mem-address', (g) => `segfault at 0x${g.hex(12)} ip 0x${g.hex(12)} sp 0x${g.hex(12)} error 4`],
  [
    'lookalike/email-like',
    (g) =>
      `${g.pick([`icon@${g.int(2, 3)}x.png`, `git@github.com:${g.user()}/${g.word()}.git`, `@${g.word()}/${g.word()}@${v3(g)}`, `@Component({ selector: 'app-${g.word()}' })`])}`,
  ],
  [
    'lookalike/pr-issue',
    (g) =>
      `Fixes #${g.int(1, 99999)}, see ${g.pick(['JIRA', 'PROJ', 'GH', 'OPS'])}-${g.int(1, 99999)} and PR #${g.int(1, 9999)}`,
  ],
  [
    'lookalike/upper-ids',
    (g) =>
      `build ${g.pick(['DE', 'FR', 'GB', 'NL'])}${g.digits(2)}${g.upperAlnum(6)} deployed to ${g.pick(['eu-west-1', 'us-east-2'])}`,
  ],
  [
    'lookalike/dates',
    (g) =>
      `${pad(g.int(1, 28))}/${pad(g.int(1, 12))}/2024 - ${g.int(2020, 2025)}-${pad(g.int(1, 12))}-${pad(g.int(1, 28))}`,
  ],
  ['hash/npm-integrity', (g) => `"integrity": "sha512-${g.b64(86)}=="`],
  ['hash/base64-blob', (g) => `data: ${g.b64(g.int(40, 120))}=`],
  [
    'hash/digests',
    (g) => `${g.pick(['md5', 'sha1', 'sha256'])}(${g.word()}.tar.gz) = ${g.hex(g.pick([32, 40, 64]))}`,
  ],
  ['hash/ssh-fingerprint', (g) => `The ED25519 key fingerprint is SHA256:${g.b64(43)}.`],
  [
    'k8s/resources',
    (g) =>
      `pod/${g.word()}-${g.hex(10)}-${g.alnum(5).toLowerCase()} ${g.int(0, 1)}/1 Running ${g.int(0, 9)} ${g.int(1, 59)}m`,
  ],
  [
    'k8s/deployment',
    (g) => `deployment.apps/${g.word()}-${g.word()} image updated to registry.k8s.io/${g.word()}:v${v3(g)}`,
  ],
  [
    'test/vitest',
    (g) => `✓ ${file(g).replace(/\.\w+$/, '.test.ts')} (${g.int(1, 99)} tests) ${g.int(1, 999)}ms`,
  ],
  [
    'test/summary',
    (g) =>
      `Tests  ${g.int(1, 999)} passed | ${g.int(0, 9)} skipped (${g.int(1, 999)})\nDuration  ${g.int(1, 99)}.${g.digits(2)}s`,
  ],
  [
    'test/jest-fail',
    (g) =>
      `Expected: ${g.int(0, 9999)}\nReceived: ${g.int(0, 9999)}\n\n  ${g.int(1, 99)} | expect(${g.word()}).toBe(${g.int(0, 99)});`,
  ],
  [
    'http/status-line',
    (g) =>
      `HTTP/${g.pick(['1.1', '2'])} ${g.pick(['200 OK', '404 Not Found', '502 Bad Gateway', '304 Not Modified'])}`,
  ],
  [
    'http/morgan',
    (g) =>
      `${g.pick(['GET', 'POST'])} /api/v1/${g.word()}s/${g.int(1, 99999)} ${g.pick([200, 201, 404])} ${g.int(0, 999)}.${g.digits(3)} ms - ${g.int(10, 9999)}`,
  ],
  [
    'number/decimals',
    (g) =>
      `epoch ${g.int(1, 99)} loss=${g.f.number.float({ min: 0, max: 3, fractionDigits: 6 })} acc=0.${g.digits(4)} lr=${g.pick(['3e-4', '1e-5', '0.001'])}`,
  ],
  ['number/coordinates', (g) => `lat: ${g.f.location.latitude()}, lng: ${g.f.location.longitude()}`],
  [
    'number/money',
    (g) =>
      `${g.pick(['$', '€', '£'])}${g.int(1, 999)},${g.digits(3)}.${g.digits(2)} total, ${g.int(1, 99999)}.${g.digits(2)} ${g.pick(['USD', 'EUR'])}`,
  ],
  [
    'number/percent-progress',
    (g) =>
      `[${'='.repeat(g.int(1, 20))}>] ${g.int(0, 100)}% ${g.int(1, 9999)}/${g.int(10000, 99999)} ETA ${g.int(0, 59)}s`,
  ],
  [
    'env/non-secret',
    (g) =>
      `NODE_ENV=${g.pick(['production', 'development'])}\nPORT=${g.int(3000, 9999)}\nLOG_LEVEL=${g.pick(['debug', 'info'])}\nMAX_RETRIES=${g.int(1, 9)}`,
  ],
  [
    'json/usage',
    (g) =>
      JSON.stringify({
        usage: {
          prompt_tokens: g.int(1, 99999),
          completion_tokens: g.int(1, 9999),
          total_tokens: g.int(1, 99999),
        },
        model: `gpt-4o-2024-0${g.int(5, 8)}-0${g.int(1, 9)}`,
      }),
  ],
  [
    'json/key-lookalikes',
    (g) =>
      JSON.stringify({
        token_count: g.number(10),
        phone_verified: true,
        card_type: 'visa',
        next_page_token: g.b64url(32),
        password_policy: `min ${g.int(8, 16)}`,
      }),
  ],
  [
    'json/process',
    (g) =>
      JSON.stringify({
        pid: g.int(100, 99999),
        exit_code: g.pick([0, 1, 137]),
        signal: null,
        cwd: `/home/dev/${g.word()}`,
      }),
  ],
  [
    'process/pid-exit',
    (g) => `[${g.int(100, 99999)}] exited with code ${g.pick([0, 1, 2, 137, 143])} after ${g.int(1, 9999)}ms`,
  ],
  ['build/chunk-hash', (g) => `assets/${g.word()}.${g.hex(8)}.js  assets/${g.word()}-${g.b64url(8)}.css`],
  [
    'build/ci-run',
    (g) => `run_id: ${g.number(10)} attempt ${g.int(1, 3)} workflow ${g.word()}.yml job ${g.number(11)}`,
  ],
  ['misc/cron', (g) => `schedule: "${g.pick(['*/5', '0', '30'])} ${g.int(0, 23)} * * ${g.int(0, 6)}"`],
  [
    'misc/placeholders',
    (g) =>
      `${g.pick(['GITHUB_TOKEN=ghp_xxx', 'OPENAI_API_KEY=sk-...', 'password: <your-password>', 'API_KEY=changeme', 'token: ${{ secrets.GITHUB_TOKEN }}'])}`,
  ],
];

/** `count` non-PII strings, the families in turn so that each is represented alike. */
export function buildNegatives(g: Gen, count: number): Negative[] {
  const out: Negative[] = [];
  for (let i = 0; i < count; i++) {
    const [family, make] = FAMILIES[i % FAMILIES.length] as Family;
    out.push({ family, text: make(g) });
  }
  return out;
}

export const NEGATIVE_FAMILIES = FAMILIES.length;
