// A fake of the few GitHub REST endpoints the sticky comment uses, on 127.0.0.1 (random port),
// recording every request. Point a client at it with getOctokit(token, { baseUrl: fake.url }),
// or a process running dist/index.js with GITHUB_API_URL=fake.url (@actions/github reads that
// variable when it is loaded).
//
// Routes: GET/POST /repos/:owner/:repo/issues/:n/comments (paged by `perPage`, Link headers as
// GitHub sends them), GET/PATCH /repos/:owner/:repo/issues/comments/:id. Modes: 'ok';
// 'forbidden' (every request → 403, a token without access); 'read-only' (writes → 403, a fork
// PR's token); 'not-found' (every request → 404); 'server-error' (every request → 500).
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeMode = 'ok' | 'forbidden' | 'read-only' | 'not-found' | 'server-error';

export interface FakeUser {
  login: string;
  type: string;
}

export interface FakeComment {
  id: number;
  /** The issue (PR) it is on; seeded comments without one are listed on every issue. */
  issueNumber: number | null;
  body: string;
  user: FakeUser;
}

export interface RecordedRequest {
  method: string;
  /** With the query string, e.g. `/repos/o/r/issues/7/comments?per_page=100&page=2`. */
  path: string;
  /** Parsed JSON, the raw text when it is not JSON, undefined without a body. */
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

export interface FakeGitHub {
  url: string;
  requests: RecordedRequest[];
  /** Every comment, in creation order (seeded first). */
  comments: FakeComment[];
  setMode(mode: FakeMode): void;
  close(): Promise<void>;
}

export interface SeedComment {
  body: string;
  /** Default: a human, `octocat` (type User). */
  user?: FakeUser;
  issueNumber?: number;
}

export interface FakeGitHubOptions {
  /** Comments per page, whatever the client asks for (default: the client's per_page, else 30). */
  perPage?: number;
  seedComments?: SeedComment[];
  /** Author of the comments the client creates (default github-actions[bot], the job token's). */
  botLogin?: string;
}

const TIME = '2024-01-01T00:00:00Z';
const LIST = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/;
const ONE = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/;

function send(
  res: ServerResponse,
  status: number,
  data: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(data));
}

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', reject);
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (text === '') return resolve(undefined);
      try {
        resolve(JSON.parse(text));
      } catch {
        resolve(text);
      }
    });
  });
}

export async function startFakeGitHub(opts: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const requests: RecordedRequest[] = [];
  const comments: FakeComment[] = [];
  const bot: FakeUser = { login: opts.botLogin ?? 'github-actions[bot]', type: 'Bot' };
  let mode: FakeMode = 'ok';
  let nextId = 1000;
  for (const seed of opts.seedComments ?? []) {
    comments.push({
      id: nextId++,
      issueNumber: seed.issueNumber ?? null,
      body: seed.body,
      user: seed.user ?? { login: 'octocat', type: 'User' },
    });
  }
  let base = '';

  const json = (c: FakeComment, owner: string, repo: string): Record<string, unknown> => ({
    id: c.id,
    node_id: `IC_${c.id}`,
    url: `${base}/repos/${owner}/${repo}/issues/comments/${c.id}`,
    html_url: `https://github.com/${owner}/${repo}/pull/${c.issueNumber ?? 0}#issuecomment-${c.id}`,
    issue_url: `${base}/repos/${owner}/${repo}/issues/${c.issueNumber ?? 0}`,
    body: c.body,
    user: { login: c.user.login, id: c.user.login.length, type: c.user.type },
    created_at: TIME,
    updated_at: TIME,
    author_association: c.user.type === 'Bot' ? 'NONE' : 'MEMBER',
  });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', base);
    const method = req.method ?? 'GET';
    const body = await readBody(req);
    requests.push({ method, path: `${url.pathname}${url.search}`, body, headers: { ...req.headers } });

    const write = method !== 'GET' && method !== 'HEAD';
    if (mode === 'forbidden' || (mode === 'read-only' && write)) {
      return send(res, 403, {
        message: 'Resource not accessible by integration',
        documentation_url: 'https://docs.github.com/rest',
        status: '403',
      });
    }
    if (mode === 'not-found') return send(res, 404, { message: 'Not Found', status: '404' });
    if (mode === 'server-error') return send(res, 500, { message: 'Server Error', status: '500' });

    const list = LIST.exec(url.pathname);
    if (list) {
      const [, owner = '', repo = '', n = ''] = list;
      const issue = Number(n);
      if (method === 'GET') {
        const onIssue = comments.filter((c) => c.issueNumber === null || c.issueNumber === issue);
        const perPage = opts.perPage ?? (Number(url.searchParams.get('per_page')) || 30);
        const page = Math.max(1, Number(url.searchParams.get('page')) || 1);
        const last = Math.max(1, Math.ceil(onIssue.length / perPage));
        const pageUrl = (p: number): string => {
          const u = new URL(url.pathname, base);
          u.searchParams.set('per_page', String(perPage));
          u.searchParams.set('page', String(p));
          return u.toString();
        };
        const links: string[] = [];
        if (page < last) links.push(`<${pageUrl(page + 1)}>; rel="next"`, `<${pageUrl(last)}>; rel="last"`);
        if (page > 1) links.push(`<${pageUrl(1)}>; rel="first"`, `<${pageUrl(page - 1)}>; rel="prev"`);
        const items = onIssue.slice((page - 1) * perPage, page * perPage).map((c) => json(c, owner, repo));
        return send(res, 200, items, links.length > 0 ? { link: links.join(', ') } : {});
      }
      if (method === 'POST') {
        const text = (body as { body?: unknown } | undefined)?.body;
        if (typeof text !== 'string') return send(res, 422, { message: 'Validation Failed', status: '422' });
        const comment: FakeComment = { id: nextId++, issueNumber: issue, body: text, user: bot };
        comments.push(comment);
        return send(res, 201, json(comment, owner, repo));
      }
    }
    const one = ONE.exec(url.pathname);
    if (one) {
      const [, owner = '', repo = '', id = ''] = one;
      const comment = comments.find((c) => c.id === Number(id));
      if (!comment) return send(res, 404, { message: 'Not Found', status: '404' });
      if (method === 'GET') return send(res, 200, json(comment, owner, repo));
      if (method === 'PATCH') {
        const text = (body as { body?: unknown } | undefined)?.body;
        if (typeof text !== 'string') return send(res, 422, { message: 'Validation Failed', status: '422' });
        // GitHub lets a token edit only its own comments.
        if (comment.user.login !== bot.login) return send(res, 403, { message: 'Forbidden', status: '403' });
        comment.body = text;
        return send(res, 200, json(comment, owner, repo));
      }
    }
    send(res, 404, { message: 'Not Found', status: '404' });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, { message: 'fake server failure', status: '500' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    requests,
    comments,
    setMode(next: FakeMode) {
      mode = next;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
