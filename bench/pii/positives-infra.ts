// Carriers of infrastructure PII: IP addresses (logs, config, JSON, shell output) and secrets
// (provider tokens, JWTs, PEM blocks, passwords in env files, YAML, DB URLs, curl headers, JSON).

import { gitDate, sb } from './positives-contact.js';
import type { Template } from './positives-contact.js';
import type { Gen } from './values.js';

function ip(g: Gen): string {
  return g.chance(0.7) ? g.ipv4() : g.ipv6();
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function syslogDate(g: Gen): string {
  return `${g.pick(MONTHS)} ${g.int(1, 28)} ${String(g.int(0, 23)).padStart(2, '0')}:${String(g.int(0, 59)).padStart(2, '0')}:${String(g.int(0, 59)).padStart(2, '0')}`;
}

export const IP_TEMPLATES: Template[] = [
  (g) => {
    const b = sb('ip/sshd-log', 'log');
    return b.text(
      `${syslogDate(g)} web-${g.int(1, 9)} sshd[${g.int(1000, 99999)}]: Accepted publickey for deploy from ${b.s('ip_address', ip(g))} port ${g.int(1024, 65535)} ssh2: ED25519 SHA256:${g.b64(43)}`,
    );
  },
  (g) => {
    const b = sb('ip/nginx-access-log', 'log');
    return b.text(
      `${b.s('ip_address', g.ipv4())} - - [${g.int(10, 28)}/Jun/2024:${String(g.int(10, 23))}:${g.int(10, 59)}:${g.int(10, 59)} +0000] "GET /api/v${g.int(1, 3)}/${g.word()}s/${g.int(1, 9999)} HTTP/1.1" ${g.pick([200, 304, 404, 500])} ${g.int(100, 99999)} "-" "curl/8.${g.int(0, 9)}.${g.int(0, 9)}"`,
    );
  },
  (g) => {
    const b = sb('ip/connection-from-port', 'log');
    const v4 = g.chance(0.7);
    const addr = v4 ? g.ipv4() : g.ipv6();
    const written = v4
      ? `${b.s('ip_address', addr)}:${g.int(1024, 65535)}`
      : `[${b.s('ip_address', addr)}]:${g.int(1024, 65535)}`;
    return b.text(`${g.iso()} INFO server: connection from ${written} accepted (worker ${g.int(1, 16)})`);
  },
  (g) => {
    const b = sb('ip/json-client-ip', 'json');
    return b.json({
      client_ip: b.s('ip_address', ip(g)),
      method: g.pick(['GET', 'POST', 'PUT']),
      path: `/v1/${g.word()}`,
      status: g.pick([200, 201, 401, 429]),
      duration_ms: g.int(1, 900),
    });
  },
  (g) => {
    const b = sb('ip/json-ip', 'json');
    return b.json(
      {
        ip: b.s('ip_address', ip(g)),
        country: g.f.location.countryCode(),
        asn: g.int(1000, 65000),
        is_vpn: false,
      },
      2,
    );
  },
  (g) => {
    const b = sb('ip/json-docker-inspect', 'json');
    return b.json(
      {
        NetworkSettings: {
          Networks: {
            bridge: {
              Gateway: b.s('ip_address', g.ipv4()),
              IPAddress: b.s('ip_address', g.ipv4()),
              IPPrefixLen: 16,
            },
          },
        },
      },
      2,
    );
  },
  (g) => {
    const b = sb('ip/yaml-bind', 'code');
    return b.text(
      `server:\n  bind_address: ${b.s('ip_address', ip(g))}\n  port: ${g.int(1024, 9999)}\n  workers: ${g.int(1, 16)}\n`,
    );
  },
  (g) => {
    const b = sb('ip/dotenv-allowed-hosts', 'code');
    return b.text(`ALLOWED_HOSTS=${b.s('ip_address', g.ipv4())},${b.s('ip_address', g.ipv4())}\nDEBUG=false`);
  },
  (g) => {
    const b = sb('ip/narration', 'prose');
    return b.text(
      `All the failed logins come from ${b.s('ip_address', ip(g))}; I'll add it to the deny list and re-run the ${g.word()} job.`,
    );
  },
  (g) => {
    const b = sb('ip/x-forwarded-for', 'log');
    return b.text(
      `> GET /login HTTP/1.1\n> Host: ${g.domain()}\n> X-Forwarded-For: ${b.s('ip_address', g.ipv4())}, ${b.s('ip_address', g.ipv4())}\n> User-Agent: ${g.f.internet.userAgent()}`,
    );
  },
  (g) => {
    const b = sb('ip/ping', 'log');
    const a = g.ipv4();
    return b.text(
      `PING ${g.domain()} (${b.s('ip_address', a)}): 56 data bytes\n64 bytes from ${b.s('ip_address', a)}: icmp_seq=0 ttl=${g.int(40, 64)} time=${g.int(1, 99)}.${g.digits(3)} ms`,
    );
  },
  (g) => {
    const b = sb('ip/ifconfig', 'log');
    return b.text(
      `eth0: flags=4163<UP,BROADCAST,RUNNING,MULTICAST>  mtu 1500\n        inet ${b.s('ip_address', g.ipv4())}  netmask 255.255.255.0\n        inet6 ${b.s('ip_address', g.ipv6())}  prefixlen 64  scopeid 0x20<link>`,
    );
  },
  (g) => {
    const b = sb('ip/kubectl-wide', 'log');
    return b.text(
      `NAME                     READY   STATUS    RESTARTS   AGE   IP\n${g.word()}-${g.hex(10)}-${g.alnum(5).toLowerCase()}   1/1     Running   0          ${g.int(1, 30)}d   ${b.s('ip_address', g.ipv4())}`,
    );
  },
  (g) => {
    const b = sb('ip/commit', 'prose');
    return b.text(
      `chore(firewall): allow ${b.s('ip_address', g.ipv4())} for the ${g.word()} webhook\n\nDate: ${gitDate(g)}`,
    );
  },
  (g) => {
    const b = sb('ip/node-remote-address-mapped', 'log');
    return b.text(
      `[${g.iso()}] request ${g.f.string.uuid()} from remoteAddress ${b.s('ip_address', `::ffff:${g.ipv4()}`)} (${g.pick(['GET', 'POST'])} /${g.word()})`,
    );
  },
  (g) => {
    const b = sb('ip/url', 'prose');
    return b.text(
      `The admin panel is reachable at http://${b.s('ip_address', g.ipv4())}:${g.int(1024, 9999)}/admin without a password.`,
    );
  },
];

/** The environment variable a token of this shape is usually kept in. */
function envName(token: string): string {
  const names: [string, string][] = [
    ['ghp_', 'GITHUB_TOKEN'],
    ['github_pat_', 'GH_TOKEN'],
    ['gh', 'GITHUB_TOKEN'],
    ['AKIA', 'AWS_ACCESS_KEY_ID'],
    ['xox', 'SLACK_BOT_TOKEN'],
    ['sk_', 'STRIPE_SECRET_KEY'],
    ['rk_', 'STRIPE_RESTRICTED_KEY'],
    ['sk-ant-', 'ANTHROPIC_API_KEY'],
    ['sk-', 'OPENAI_API_KEY'],
    ['AIza', 'GOOGLE_API_KEY'],
    ['npm_', 'NPM_TOKEN'],
    ['eyJ', 'AUTH_TOKEN'],
    ['glpat-', 'GITLAB_TOKEN'],
    ['SG.', 'SENDGRID_API_KEY'],
    ['hf_', 'HF_TOKEN'],
  ];
  return names.find(([p]) => token.startsWith(p))?.[1] ?? 'API_KEY';
}

export const SECRET_TEMPLATES: Template[] = [
  (g) => {
    const b = sb('secret/dotenv-provider', 'code');
    const t = g.providerToken();
    return b.text(
      `NODE_ENV=production\nPORT=${g.int(3000, 9000)}\n${envName(t)}=${b.s('secret', t)}\nLOG_LEVEL=info\n`,
    );
  },
  (g) => {
    const b = sb('secret/curl-bearer', 'code');
    return b.text(
      `curl -sS -H "Authorization: Bearer ${b.s('secret', g.providerToken())}" https://api.${g.domain()}/v1/${g.word()}s?limit=${g.int(1, 100)}`,
    );
  },
  (g) => {
    const b = sb('secret/curl-bearer-opaque', 'code');
    return b.text(
      `curl -X POST https://${g.domain()}/api/jobs -H 'Authorization: Bearer ${b.s('secret', g.alnum(40))}' -d '{"id":${g.int(1, 999)}}'`,
    );
  },
  (g) => {
    const b = sb('secret/json-api-key', 'json');
    return b.json({
      api_key: b.s('secret', g.providerToken()),
      region: g.pick(['us-east-1', 'eu-west-1']),
      retries: 3,
    });
  },
  (g) => {
    const b = sb('secret/json-token-opaque', 'json');
    return b.json({ token: b.s('secret', g.b64url(g.int(32, 64))), expires_in: 3600, token_type: 'Bearer' });
  },
  (g) => {
    const b = sb('secret/json-password', 'json');
    return b.json({ username: g.user(), password: b.s('secret', g.password()), remember_me: true });
  },
  (g) => {
    const b = sb('secret/json-oauth', 'json');
    return b.json(
      {
        access_token: b.s('secret', g.jwt()),
        refresh_token: b.s('secret', g.b64url(48)),
        scope: 'repo read:org',
      },
      2,
    );
  },
  (g) => {
    const b = sb('secret/json-aws-credentials', 'json');
    return b.json(
      {
        Credentials: {
          AccessKeyId: b.s('secret', `ASIA${g.upperAlnum(16)}`),
          SecretAccessKey: b.s('secret', g.b64(40).replace(/\+/g, 'x')),
          SessionToken: b.s('secret', `FwoGZXIvYXdzE${g.b64(140)}`),
          Expiration: g.iso(),
        },
      },
      2,
    );
  },
  (g) => {
    const b = sb('secret/python-client', 'code');
    const t = g.providerToken();
    return b.text(
      `import openai\n\nclient = openai.OpenAI(api_key="${b.s('secret', t)}")\nresp = client.models.list()`,
    );
  },
  (g) => {
    const b = sb('secret/ts-client', 'code');
    return b.text(
      `const stripe = new Stripe('${b.s('secret', `sk_live_${g.alnum(g.pick([24, 99]))}`)}', { apiVersion: '2024-06-20' });`,
    );
  },
  (g) => {
    const b = sb('secret/compose-password', 'code');
    return b.text(
      `services:\n  db:\n    image: postgres:16.${g.int(0, 4)}\n    environment:\n      POSTGRES_USER: app\n      POSTGRES_PASSWORD: ${b.s('secret', g.password())}\n    ports:\n      - "5432:5432"\n`,
    );
  },
  (g) => {
    const b = sb('secret/dotenv-db-password', 'code');
    return b.text(
      `DB_HOST=db.internal\nDB_USER=app\nDB_PASSWORD=${b.s('secret', g.password(20))}\nDB_NAME=${g.word()}\n`,
    );
  },
  (g) => {
    const b = sb('secret/database-url', 'code');
    const scheme = g.pick(['postgres', 'postgresql', 'mysql', 'mongodb+srv', 'redis']);
    const host =
      scheme === 'mongodb+srv'
        ? `cluster0.${g.alnum(5).toLowerCase()}.mongodb.net`
        : `${g.word()}-db.internal:${g.int(3000, 9999)}`;
    return b.text(`DATABASE_URL=${scheme}://${g.user()}:${b.s('secret', g.password())}@${host}/${g.word()}`);
  },
  (g) => {
    const b = sb('secret/pem-shell', 'log');
    return b.text(`$ cat ~/.ssh/deploy_key\n${b.s('secret', g.pem())}\n$ chmod 600 ~/.ssh/deploy_key`);
  },
  (g) => {
    const b = sb('secret/pem-json-stdout', 'json');
    return b.json({ exit_code: 0, stdout: `${b.s('secret', g.pem())}\n`, stderr: '' });
  },
  (g) => {
    const b = sb('secret/git-remote-token', 'log');
    return b.text(
      `$ git remote -v\norigin  https://x-access-token:${b.s('secret', `ghs_${g.alnum(36)}`)}@github.com/${g.word()}/${g.word()}.git (fetch)`,
    );
  },
  (g) => {
    const b = sb('secret/commit-leak', 'prose');
    return b.text(
      `chore: rotate the deploy key\n\nThe old key (${b.s('secret', g.providerToken())}) was revoked on ${gitDate(g)}.`,
    );
  },
  (g) => {
    const b = sb('secret/debug-log-header', 'log');
    return b.text(
      `${g.iso()} DEBUG http: > Authorization: token ${b.s('secret', `ghp_${g.alnum(36)}`)}\n${g.iso()} DEBUG http: < 200 OK (${g.int(10, 900)}ms)`,
    );
  },
  (g) => {
    const b = sb('secret/aws-credentials-file', 'code');
    return b.text(
      `[default]\naws_access_key_id = ${b.s('secret', `AKIA${g.upperAlnum(16)}`)}\naws_secret_access_key = ${b.s('secret', g.b64(40))}\nregion = eu-west-1`,
    );
  },
  (g) => {
    const b = sb('secret/npmrc', 'code');
    return b.text(
      `//registry.npmjs.org/:_authToken=${b.s('secret', `npm_${g.alnum(36)}`)}\n@${g.word()}:registry=https://npm.pkg.github.com`,
    );
  },
  (g) => {
    const b = sb('secret/narration-leak', 'prose');
    return b.text(
      `The test fails because the fixture hard-codes ${b.s('secret', g.providerToken())}; I'll move it to an env variable.`,
    );
  },
  (g) => {
    const b = sb('secret/curl-verbose-basic', 'log');
    const basic = Buffer.from(`${g.user()}:${g.password()}`).toString('base64');
    return b.text(
      `> GET /api/status HTTP/1.1\n> Host: ${g.domain()}\n> Authorization: Basic ${b.s('secret', basic)}\n> User-Agent: curl/8.5.0`,
    );
  },
  (g) => {
    const b = sb('secret/docker-run-env', 'code');
    const t = g.providerToken();
    return b.text(
      `docker run --rm -e ${envName(t)}=${b.s('secret', t)} -p ${g.int(3000, 9000)}:8080 ${g.word()}/${g.word()}:latest`,
    );
  },
];
