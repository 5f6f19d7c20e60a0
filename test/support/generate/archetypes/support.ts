// Customer-support sessions: short turns, identity checks, billing and refund flows, knowledge-base
// retrieval, parallel account lookups, and PII planted in user text, tool arguments and results.

import type { ToolCallSpec } from '../builder.js';
import { creditCard, iban, ipv4, person, secret, ssn } from '../pii.js';
import type { Person, PiiType } from '../pii.js';
import { jsonApiResponse, verboseTokens } from '../text/coding-output.js';
import { ADJECTIVES, NOUNS, SUPPORT_SENTENCES } from '../text/vocab.js';
import { chatter, newTask, phase, question, sentences, summary } from './common.js';
import type { SessionState } from './common.js';

const SYSTEM = [
  'You are a customer support agent for an online store.',
  'Verify the customer before discussing account details. Be brief and polite.',
  'Use the tools to look up customers, orders and payments; never invent data.',
].join('\n');

const POLICY =
  'Policy: refunds over 500 need a supervisor. Never read back full card numbers or national ids.';

interface SupportState extends SessionState {
  customer?: Person & { id: string };
}

type Plant = { type: PiiType; value: string };

function customerId(s: SessionState): string {
  return `cus_${s.rng.base62(12)}`;
}

function orderId(s: SessionState): string {
  return `ORD-${s.rng.upper(2)}${s.rng.int(1000, 9999)}`;
}

export function openSupport(s: SupportState): void {
  const { b, rng } = s;
  b.message({ kind: 'system', content: SYSTEM });
  if (rng.chance(0.8))
    b.message({ kind: 'policy', content: POLICY, ...(rng.chance(0.3) ? { pin: true } : {}) });
  b.message({ kind: 'task', content: `Resolve support ticket ${rng.upper(3)}-${rng.int(1000, 9999)}.` });
  phase(s, 'identify');
}

/** The customer identifies; the agent looks them up by email (PII in the call arguments too). */
function identify(s: SupportState): boolean {
  const { b, rng, faker } = s;
  if (!b.fits(4)) return false;
  const who = { ...person(rng, faker), id: customerId(s) };
  s.customer = who;
  b.add(
    {
      kind: 'user',
      content: `Hi, I'm ${who.first} ${who.last}. My email is ${who.email} and you can call me on ${who.phone} if needed.`,
    },
    [
      { type: 'email', value: who.email },
      { type: 'phone', value: who.phone },
    ],
  );
  const lastIp = ipv4(rng);
  const profile = {
    id: who.id,
    name: `${who.first} ${who.last}`,
    email: who.email,
    phone: who.phone,
    address: { street: who.street, city: who.city },
    tier: rng.pick(['basic', 'plus', 'premium']),
    orders_count: rng.int(1, 40),
    last_login_ip: lastIp,
    flags: rng.sample(ADJECTIVES, rng.int(0, 2)),
  };
  b.toolRound(
    'Let me pull up your account.',
    [
      {
        name: 'lookup_customer',
        args: { email: who.email },
        result: {
          content: JSON.stringify(profile, null, 2),
          plants: [
            { type: 'email', value: who.email },
            { type: 'phone', value: who.phone },
            { type: 'ip_address', value: lastIp },
          ],
        },
      },
    ],
    { plants: [{ type: 'email', value: who.email }] },
  );
  b.add({ kind: 'assistant', content: `Thanks ${who.first}, I found your account. How can I help today?` });
  return true;
}

/** A double charge: the card number in the complaint, 2–4 lookups in parallel, a decision. */
function billing(s: SupportState): boolean {
  const { b, rng } = s;
  if (!s.customer || !b.fits(5)) return false;
  const card = creditCard(rng);
  const order = orderId(s);
  b.add({ kind: 'user', content: `I was charged twice for order ${order} on my card ${card} yesterday.` }, [
    { type: 'credit_card', value: card },
  ]);
  const id = s.customer.id;
  const lookups: ToolCallSpec[] = [
    {
      name: 'get_order',
      args: { order_id: order },
      result: { content: JSON.stringify({ id: order, status: 'delivered', total: rng.int(20, 900) + 0.99 }) },
    },
    {
      name: 'get_payments',
      args: { customer_id: id, order_id: order },
      result: {
        content: JSON.stringify({
          payments: [
            { id: `pay_${rng.base62(10)}`, status: 'captured', last4: card.slice(-4) },
            { id: `pay_${rng.base62(10)}`, status: 'captured', last4: card.slice(-4) },
          ],
        }),
      },
    },
    {
      name: 'get_refunds',
      args: { customer_id: id },
      result: { content: JSON.stringify({ refunds: [] }) },
    },
    {
      name: 'get_tickets',
      args: { customer_id: id },
      result: { content: JSON.stringify({ open: rng.int(0, 2), closed: rng.int(0, 9) }) },
    },
  ];
  b.toolRound('Let me check the order and payments.', lookups.slice(0, rng.int(2, 4)));
  b.message({
    kind: 'assistant',
    content: `Decision: the second charge on ${order} is a duplicate and will be refunded in full.`,
    tags: ['decision'],
  });
  return true;
}

/** A refund to a bank account: the IBAN in the message, in the tool arguments, a `result` outcome. */
function refund(s: SupportState): boolean {
  const { b, rng } = s;
  if (!b.fits(4)) return false;
  const account = iban(rng);
  const order = orderId(s);
  const plant: Plant = { type: 'iban', value: account };
  b.add(
    { kind: 'user', content: `Please send the refund for ${order} to my bank account ${account} instead.` },
    [plant],
  );
  b.toolRound(
    'Issuing the refund now.',
    [
      {
        name: 'issue_refund',
        args: { order_id: order, iban: account, amount: rng.int(10, 499) },
        result: { content: JSON.stringify({ status: 'queued', eta_days: rng.int(2, 7) }), tags: ['result'] },
      },
    ],
    { plants: [plant] },
  );
  b.add({ kind: 'assistant', content: 'Done: the refund is queued and should arrive within a week.' });
  return true;
}

/** National id volunteered for a tax form; the agent declines to store it. */
function taxForm(s: SupportState): boolean {
  const { b, rng } = s;
  if (!b.fits(2)) return false;
  const value = ssn(rng);
  b.add({ kind: 'user', content: `For the tax form, my SSN is ${value} if you need it.` }, [
    { type: 'ssn', value },
  ]);
  b.add({
    kind: 'assistant',
    content: 'Thank you, but please do not share your SSN here; we never need it.',
  });
  return true;
}

/** A developer customer pastes an error with their API key and server address. */
function integrationError(s: SupportState): boolean {
  const { b, rng } = s;
  if (!b.fits(2)) return false;
  const key = secret(rng);
  const ip = ipv4(rng);
  b.add(
    {
      kind: 'user',
      content: [
        'Our integration started failing. Request log:',
        `POST /v2/orders from ${ip} -> 401 Unauthorized`,
        `Authorization: Bearer ${key}`,
        'What is wrong?',
      ].join('\n'),
      tags: ['error'],
    },
    [
      { type: 'ip_address', value: ip },
      { type: 'secret', value: key },
    ],
  );
  b.add({
    kind: 'assistant',
    content: 'That key was revoked. Please rotate it in the dashboard and never paste keys here.',
  });
  return true;
}

/** A knowledge-base article retrieved for the current question. */
function retrieval(s: SupportState): boolean {
  const { b, rng } = s;
  if (!b.fits(2)) return false;
  const topic = rng.pick(NOUNS);
  const body: string[] = [`# Help center: ${topic} questions`];
  for (let i = rng.int(3, 12); i > 0; i--) body.push(`- ${sentences(rng, rng.int(1, 3), SUPPORT_SENTENCES)}`);
  b.add({ kind: 'retrieval', content: body.join('\n') });
  b.add({
    kind: 'assistant',
    content: `According to our ${topic} guide: ${sentences(rng, 1, SUPPORT_SENTENCES)}`,
  });
  return true;
}

/** A verbose order-history lookup: a large JSON response with many fields. */
function orderHistory(s: SupportState): boolean {
  const { b, rng } = s;
  if (!s.customer) return false;
  const call: ToolCallSpec = {
    name: 'get_order_history',
    args: { customer_id: s.customer.id, limit: rng.int(20, 100) },
    result: { content: jsonApiResponse(rng, verboseTokens(rng)) },
  };
  return b.toolRound('Let me look at your recent orders.', [call]) !== null;
}

export function supportEpisode(s: SupportState): boolean {
  const { rng } = s;
  if (!s.customer) return identify(s);
  if (s.phase === 'identify' && rng.chance(0.3)) return phase(s, 'resolve');
  if (s.phase === 'resolve' && rng.chance(0.08)) return phase(s, 'wrap-up');
  if (s.phase === 'wrap-up' && rng.chance(0.3)) {
    s.customer = undefined;
    return newTask(s, `Resolve support ticket ${rng.upper(3)}-${rng.int(1000, 9999)}.`, 'identify');
  }
  const step = rng.weighted<() => boolean>([
    [() => billing(s), 2],
    [() => refund(s), 1.5],
    [() => taxForm(s), 0.7],
    [() => integrationError(s), 0.7],
    [() => retrieval(s), 1.5],
    [() => orderHistory(s), 1],
    [() => chatter(s), 3],
    [() => question(s) !== null, 1],
    [() => summary(s), 0.7],
  ]);
  return step();
}

export type { SupportState };
