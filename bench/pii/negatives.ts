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

const MONTH_ABBR = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Groups of three joined by `sep` (`912 345 678`, `1.234.567`). */
function thousands(n: number, sep: string): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, sep);
}

/** A valid ISBN-13 with hyphens (`978-3-16-148410-0`). */
function isbn13(g: Gen): string {
  const group = g.pick(['0', '1', '3', '2', '84', '88', '4', '7']);
  const publisher = g.digits(g.int(2, 5));
  const title = g.digits(9 - group.length - publisher.length);
  const body = `978${group}${publisher}${title}`;
  const sum = [...body].reduce((acc, ch, i) => acc + Number(ch) * (i % 2 === 0 ? 1 : 3), 0);
  return `978-${group}-${publisher}-${title}-${(10 - (sum % 10)) % 10}`;
}

/** A valid ISBN-10 with hyphens (`0-306-40615-2`). */
function isbn10(g: Gen): string {
  const group = g.pick(['0', '1', '3']);
  const publisher = g.digits(g.int(2, 4));
  const title = g.digits(9 - group.length - publisher.length);
  const body = `${group}${publisher}${title}`;
  const sum = [...body].reduce((acc, ch, i) => acc + Number(ch) * (10 - i), 0);
  const check = (11 - (sum % 11)) % 11;
  return `${group}-${publisher}-${title}-${check === 10 ? 'X' : check}`;
}

/** A ten-digit NANP-shaped number that no one can hold: area or exchange code starting 0/1. */
function invalidNanp(g: Gen): string {
  // Area codes from 1: no NANP number, and no Mexican one either (MX writes its ten digits
  // 3-3-4 like the US). A leading 0 is not used: `039 599 3377`, `(041) 911-3503` are valid
  // Italian, South African, Irish and Korean numbers written as those regions write them.
  const [a, b, c] = g.pick([
    ['123', '456', '7890'],
    [`1${g.digits(2)}`, `${g.int(2, 9)}${g.digits(2)}`, g.digits(4)],
    [`1${g.digits(2)}`, `${g.int(0, 1)}${g.digits(2)}`, g.digits(4)],
  ]);
  return g.pick([`${a}-${b}-${c}`, `(${a}) ${b}-${c}`, `${a}.${b}.${c}`]);
}

/** Families added for the phone, card, IBAN and national-ID look-alikes an agent session holds. */
const LOOKALIKE_FAMILIES: Family[] = [
  [
    'number/thousands-space',
    (g) =>
      `${g.pick(['Total requests:', 'processed', 'heap used', 'rows scanned:'])} ${thousands(g.int(100_000_000, 999_999_999), ' ')}${g.pick(['', ' (p99 ok)', ' so far'])}`,
  ],
  [
    'number/thousands-space-unit',
    (g) =>
      `${thousands(g.int(1_000_000, 99_999_999), ' ')} ${g.pick(['bytes', 'octets', 'tokens', 'records'])} written in ${g.int(1, 99)} s`,
  ],
  [
    'number/thousands-dot',
    (g) =>
      `${g.pick(['Einwohner', 'Datensätze', 'Zeilen', 'Aufrufe'])}: ${thousands(g.int(1_000_000, 99_999_999), '.')}`,
  ],
  [
    'number/thousands-comma',
    (g) =>
      `${thousands(g.int(1_000_000, 9_999_999_999), ',')} ${g.pick(['rows affected', 'events ingested', 'downloads last month'])}`,
  ],
  [
    'number/money-eu',
    (g) =>
      `Gesamtbetrag: ${thousands(g.int(1_000_000, 99_999_999), '.')},${g.digits(2)} € (netto ${thousands(g.int(1000, 999_999), '.')},${g.digits(2)} €)`,
  ],
  [
    'number/money-table',
    (g) =>
      `| Q${g.int(1, 4)} revenue | $${thousands(g.int(1_000_000, 999_999_999), ',')}.${g.digits(2)} | +${g.int(1, 40)}.${g.digits(1)}% |`,
  ],
  [
    'lookalike/invalid-nanp',
    (g) =>
      `${g.pick(['placeholder="e.g.', 'example:', 'format:', 'mask'])} ${invalidNanp(g)}${g.pick(['"', '', ' (digits only)'])}`,
  ],
  [
    'lookalike/isbn',
    (g) =>
      `${g.pick(['ISBN', 'ISBN-13:', 'isbn'])} ${isbn13(g)}${g.chance(0.4) ? `, ISBN-10 ${isbn10(g)}` : ''}`,
  ],
  [
    'lookalike/zip-plus-four',
    (g) =>
      `${g.f.location.streetAddress()}, ${g.f.location.state({ abbreviated: true })} ${g.int(10000, 99999)}-${g.digits(4)}`,
  ],
  [
    'time/dates-various',
    (g) => {
      const y = g.int(2019, 2025);
      const m = pad(g.int(1, 12));
      const d = pad(g.int(1, 28));
      return g.pick([
        `${d}.${m}.${y} ${time(g)}`,
        `${m}/${d}/${y} ${pad(g.int(1, 12))}:${pad(g.int(0, 59))} ${g.pick(['AM', 'PM'])}`,
        `${y}${m}${d}-${pad(g.int(0, 23))}${pad(g.int(0, 59))}${pad(g.int(0, 59))}`,
        `${y}/${m}/${d} ${time(g)}.${g.digits(3)}`,
        `${d}-${g.pick(MONTH_ABBR)}-${y} ${time(g)}`,
        `${y}-${m}-${d}T${time(g)}+0${g.int(0, 9)}:00`,
        `backup-${y}-${m}-${d}-${pad(g.int(0, 23))}${pad(g.int(0, 59))}.tar.gz`,
      ]);
    },
  ],
  [
    'time/time-ranges',
    (g) =>
      `${g.pick(['maintenance window', 'on call', 'office hours'])} ${time(g)}-${time(g)} UTC, ${pad(g.int(1, 12))}:${pad(g.int(0, 59))}-${pad(g.int(1, 12))}:${pad(g.int(0, 59))} local`,
  ],
  [
    'version/long-builds',
    (g) =>
      g.pick([
        `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${g.int(110, 127)}.0.${g.int(5000, 6999)}.${g.int(10, 199)} Safari/537.36`,
        `Xcode ${g.int(13, 16)}.${g.int(0, 4)} (Build ${g.int(13, 16)}${g.pick(['A', 'B', 'C', 'E'])}${g.int(100, 999)}${g.pick(['', 'a', 'b'])})`,
        `kernel 6.${g.int(1, 9)}.${g.int(0, 99)}-${g.int(100, 999)}.${g.int(1, 99)}.${g.int(1, 9)}.el9_${g.int(1, 4)}.x86_64`,
        `OS Build 22631.${g.int(1000, 4000)}, .NET 8.0.${g.int(100, 999)}.${g.int(10000, 99999)}`,
      ]),
  ],
  [
    'version/prerelease',
    (g) =>
      `v${v3(g)}-${g.pick(['rc', 'beta', 'alpha', 'canary'])}.${g.int(0, 20)}+build.${g.int(1000, 99999)}`,
  ],
  [
    'lookalike/rows-count',
    (g) =>
      `${g.pick(['number of rows:', 'Number of records:', 'total number of keys:', 'row count ='])} ${g.int(100_000, 99_999_999)}`,
  ],
  [
    'lookalike/line-number',
    (g) =>
      `${g.pick(['error at line number', 'line number', 'offset', 'byte offset'])} ${g.int(10_000, 99_999_999)} in ${file(g)}`,
  ],
  [
    'lookalike/number-after-number',
    (g) =>
      g.pick([
        `Order number: ${g.digits(3)}-${g.digits(7)}-${g.digits(7)}`,
        `${g.pick(['case', 'ticket', 'build', 'run', 'job', 'tracking'])} number ${g.number(g.int(7, 12))}`,
        `${g.pick(['Invoice', 'PO', 'Batch'])} number ${g.int(2019, 2025)}-${g.digits(g.int(4, 7))}`,
        `serial number ${g.upperAlnum(4)}-${g.digits(6)}-${g.digits(4)}`,
        `build number ${g.int(2019, 2025)}${pad(g.int(1, 12))}${pad(g.int(1, 28))}.${g.int(1, 9)}`,
      ]),
  ],
  [
    'net/port-ranges',
    (g) =>
      g.pick([
        `--publish ${g.int(30000, 31000)}-${g.int(32000, 32767)}:${g.int(30000, 31000)}-${g.int(32000, 32767)}`,
        `net.ipv4.ip_local_port_range = ${g.int(1024, 40000)} ${g.int(50000, 65535)}`,
        `EXPOSE ${g.int(3000, 5000)}-${g.int(5001, 9999)}`,
        `allow tcp ${g.int(1024, 9999)}-${g.int(10000, 65535)} from VPC`,
      ]),
  ],
  [
    'net/docker-ps-ports',
    (g) =>
      `${g.hex(12)}   ${g.word()}:latest   "docker-entrypoint.s…"   ${g.int(2, 59)} minutes ago   Up ${g.int(2, 59)} minutes   0.0.0.0:${g.int(3000, 9999)}->${g.int(80, 9000)}/tcp, :::${g.int(3000, 9999)}->${g.int(80, 9000)}/tcp`,
  ],
  [
    'net/reserved-addresses',
    (g) =>
      g.pick([
        `127.0.0.1   localhost\n::1         localhost ip6-localhost`,
        `server listening on [::1]:${g.int(1024, 9999)} and 0.0.0.0:${g.int(1024, 9999)}`,
        `bind-address = 0.0.0.0`,
        `ping -c 3 127.0.0.1`,
        `broadcast 255.255.255.255 port ${g.pick([67, 68, 9])}`,
        `inet 127.0.0.1 netmask 0xff000000\ninet6 ::1 prefixlen 128`,
        JSON.stringify({ host: g.pick(['127.0.0.1', '0.0.0.0', '::1']), port: g.int(1024, 9999) }),
        `route add default 0.0.0.0/0 via gateway`,
        `redis-cli -h 127.0.0.1 -p 6379 ping`,
        `DATABASE_HOST=127.0.0.1`,
      ]),
  ],
  [
    'net/netmask-broadcast',
    // The limited broadcast and netmasks identify no one. (A subnet's broadcast address,
    // `192.168.1.255`, is an address of that network like any other and is masked.)
    (g) =>
      g.pick([
        `        inet 127.0.0.1  netmask 255.0.0.0`,
        `DHCPDISCOVER on eth${g.int(0, 3)} to 255.255.255.255 port 67 interval ${g.int(3, 20)}`,
        `        netmask ${g.pick(['255.255.255.0', '255.255.0.0', '255.255.255.128'])}  broadcast 255.255.255.255`,
      ]),
  ],
  [
    'number/coordinates-pair',
    (g) =>
      `${g.pick(['center:', 'geo:', 'location', '@'])} ${g.f.location.latitude({ precision: 6 })}, ${g.f.location.longitude({ precision: 6 })}`,
  ],
  [
    'number/ranges',
    (g) =>
      `${g.pick(['see lines ', 'pages ', 'Range: bytes=', 'rows '])}${g.int(100, 9999)}-${g.int(10000, 99999)}`,
  ],
  [
    'lookalike/cve-ids',
    (g) =>
      `${g.pick(['Fixes', 'Mitigates', 'Tracked as'])} CVE-${g.int(2019, 2025)}-${g.int(1000, 59999)} and GHSA-${g.alnum(4).toLowerCase()}-${g.alnum(4).toLowerCase()}-${g.alnum(4).toLowerCase()}`,
  ],
  [
    'lookalike/ls-du-output',
    (g) =>
      g.pick([
        `-rw-r--r--  1 dev  staff  ${g.int(1_000_000, 999_999_999)} ${g.pick(MONTH_ABBR)} ${g.int(1, 28)} ${pad(g.int(0, 23))}:${pad(g.int(0, 59))} ${g.word()}.bin`,
        `/dev/nvme0n1p${g.int(1, 4)}  ${g.int(100_000_000, 999_999_999)} ${g.int(10_000_000, 99_999_999)} ${g.int(10_000_000, 99_999_999)}  ${g.int(1, 99)}% /`,
      ]),
  ],
  [
    'lookalike/git-stats',
    (g) => ` ${g.int(1, 99)} files changed, ${g.int(1, 9999)} insertions(+), ${g.int(1, 9999)} deletions(-)`,
  ],
  [
    'lookalike/nine-digit-groups',
    (g) =>
      `${g.pick(['job', 'shard', 'batch'])} ${g.digits(3)} ${g.digits(3)} ${g.digits(3)} ${g.pick(['done', 'queued', 'retried'])}`,
  ],
  [
    'lookalike/twelve-digit-ids',
    (g) =>
      `${g.pick(['account', 'project number', 'GCP project'])} ${g.number(12)} · ${g.pick(['billing enabled', 'us-central1'])}`,
  ],
  [
    'lookalike/eight-digits-letter',
    (g) => `${g.pick(['build', 'artifact', 'ref'])} ${g.digits(8)}${g.pick(['A', 'B', 'X', 'Z'])} promoted`,
  ],
  ['lookalike/upper-16', (g) => `license key ${g.upperAlnum(16)} activated on ${g.word()}-${g.int(1, 99)}`],
  [
    'lookalike/bigint-max',
    (g) =>
      `${g.pick(['BIGINT max', 'Long.MAX_VALUE', 'i64::MAX'])} = ${g.pick(['9223372036854775807', '18446744073709551615', '2147483647'])}`,
  ],
  [
    'lookalike/phone-keys-json',
    (g) =>
      JSON.stringify({
        phone_count: g.int(1, 9),
        phone_country_code: g.pick(['+1', '+44', '+49']),
        phone_verified_at: g.iso(),
      }),
  ],
];

const ALL_FAMILIES: Family[] = [...FAMILIES, ...LOOKALIKE_FAMILIES];

/** `count` non-PII strings, the families in turn so that each is represented alike. */
export function buildNegatives(g: Gen, count: number): Negative[] {
  const out: Negative[] = [];
  for (let i = 0; i < count; i++) {
    const [family, make] = ALL_FAMILIES[i % ALL_FAMILIES.length] as Family;
    out.push({ family, text: make(g) });
  }
  return out;
}

export const NEGATIVE_FAMILIES = ALL_FAMILIES.length;
