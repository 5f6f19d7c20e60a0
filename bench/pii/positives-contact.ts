// Carriers of contact PII: emails, phone numbers, SSNs, each placed in
// prose (support chat, agent narration, commit messages), JSON tool outputs, code and config, and
// logs. Every template returns one labelled sample; unlabelled context around the values (names,
// SHAs, timestamps, ids) is what a session around such values holds.

import { SampleBuilder } from './sample.js';
import type { CarrierKind, Sample } from './sample.js';
import { NATIONAL_REGIONS, PHONE_COUNTRIES } from './values.js';
import type { Gen, NationalRegion, PhoneCountry } from './values.js';

export type Template = (g: Gen) => Sample;

export function sb(carrier: string, kind: CarrierKind): SampleBuilder {
  return new SampleBuilder(carrier, kind);
}

/** A date like `Mon Jun 10 08:13:20 2024 +0200` (git log). */
export function gitDate(g: Gen): string {
  const d = new Date(g.iso());
  return `${d.toUTCString().slice(0, 3)} ${d.toUTCString().slice(8, 11)} ${d.getUTCDate()} ${d.toISOString().slice(11, 19)} 2024 +0200`;
}

export const EMAIL_TEMPLATES: Template[] = [
  (g) => {
    const b = sb('email/support-chat', 'prose');
    return b.text(
      `User: hi, I can't log in — my account is ${b.s('email', g.email())} and the reset link never arrives.`,
    );
  },
  (g) => {
    const b = sb('email/agent-narration', 'prose');
    return b.text(
      `I'll add ${g.first()} to CODEOWNERS and notify ${b.s('email', g.email())} about the failing deploy of ${g.word()}-service.`,
    );
  },
  (g) => {
    const b = sb('email/co-authored-by', 'prose');
    return b.text(
      `fix(auth): refresh the session on 401\n\nRetry once with a fresh token before surfacing the error.\n\nCo-authored-by: ${g.name()} <${b.s('email', g.email())}>`,
    );
  },
  (g) => {
    const b = sb('email/git-log', 'log');
    return b.text(
      `commit ${g.f.git.commitSha()}\nAuthor: ${g.name()} <${b.s('email', g.email())}>\nDate:   ${gitDate(g)}\n\n    ${g.f.git.commitMessage()}\n`,
    );
  },
  (g) => {
    const b = sb('email/json-user', 'json');
    return b.json({
      id: g.int(1, 99999),
      name: g.name(),
      email: b.s('email', g.email()),
      created_at: g.iso(),
      roles: ['member'],
    });
  },
  (g) => {
    const b = sb('email/json-contact', 'json');
    return b.json({ owner: { contact: b.s('email', g.email()), team: g.word() }, updated: g.iso() }, 2);
  },
  (g) => {
    const b = sb('email/json-list', 'json');
    return b.json(
      {
        data: [
          { id: g.f.string.uuid(), email: b.s('email', g.email()), verified: true },
          { id: g.f.string.uuid(), email: b.s('email', g.email()), verified: false },
        ],
        next_page_token: g.b64url(24),
      },
      2,
    );
  },
  (g) => {
    const b = sb('email/json-error-message', 'json');
    return b.json({
      status: 409,
      error: 'conflict',
      message: `User ${b.s('email', g.email())} already exists`,
    });
  },
  (g) => {
    const b = sb('email/dotenv', 'code');
    return b.text(
      `SMTP_HOST=smtp.${g.domain()}\nSMTP_PORT=587\nSMTP_USER=${b.s('email', g.email())}\nMAIL_FROM=${b.s('email', `no-reply@${g.domain()}`)}\n`,
    );
  },
  (g) => {
    const b = sb('email/yaml-maintainers', 'code');
    return b.text(
      `maintainers:\n  - name: ${g.name()}\n    email: ${b.s('email', g.email())}\n    github: ${g.user()}\n`,
    );
  },
  (g) => {
    const b = sb('email/git-config', 'code');
    return b.text(
      `$ git config user.email "${b.s('email', g.email())}"\n$ git config user.name "${g.name()}"`,
    );
  },
  (g) => {
    const b = sb('email/mailer-log', 'log');
    return b.text(
      `${g.iso()} INFO  mailer: sent password reset to ${b.s('email', g.email())} (message id ${g.f.string.uuid()}, ${g.int(80, 900)}ms)`,
    );
  },
  (g) => {
    const b = sb('email/mailto-html', 'code');
    return b.text(
      `<p>Questions? <a href="mailto:${b.s('email', g.email())}">Contact support</a> — v${g.f.system.semver()}</p>`,
    );
  },
  (g) => {
    const b = sb('email/csv', 'code');
    return b.text(
      `id,name,email,signup\n${g.int(1000, 9999)},${g.name()},${b.s('email', g.email())},${g.iso().slice(0, 10)}\n${g.int(1000, 9999)},${g.name()},${b.s('email', g.email())},${g.iso().slice(0, 10)}`,
    );
  },
  (g) => {
    const b = sb('email/package-json-author', 'json');
    return b.json(
      {
        name: `@${g.word()}/${g.word()}`,
        version: g.f.system.semver(),
        author: `${g.name()} <${b.s('email', g.email())}> (https://${g.domain()})`,
        license: 'MIT',
      },
      2,
    );
  },
  (g) => {
    const b = sb('email/python', 'code');
    return b.text(
      `send_mail(\n    subject="Weekly report",\n    recipients=["${b.s('email', g.email())}"],\n    sender="${b.s('email', `reports@${g.domain()}`)}",\n)`,
    );
  },
  (g) => {
    const b = sb('email/url-encoded-query', 'log');
    return b.text(
      `${g.iso()} GET /api/v1/users/lookup?email=${b.s('email', encodeURIComponent(g.email()))}&include=teams 200 ${g.int(2, 300)}ms`,
    );
  },
];

// Context words people write before a national number, per country (some in the local language).
const PHONE_CONTEXT: Record<PhoneCountry, readonly string[]> = {
  US: ['Phone:', 'call me at', 'my cell is', 'Tel:', 'mobile:'],
  GB: ['Mobile:', 'Tel:', 'phone', 'my mobile number is'],
  FR: ['Téléphone :', 'Tél. :', 'portable :', 'téléphone'],
  DE: ['Handy:', 'Tel.:', 'Telefon:', 'Mobil:'],
  IN: ['Mobile:', 'Phone no.', 'contact number'],
  BR: ['Telefone:', 'celular:', 'WhatsApp:'],
  JP: ['電話:', 'TEL:', '携帯:'],
  ES: ['Teléfono:', 'móvil:', 'Tel.:'],
  IT: ['Telefono:', 'cellulare:', 'Tel.'],
  NL: ['Telefoon:', 'mobiel:', 'Tel:'],
  AU: ['Mobile:', 'Ph:', 'phone'],
  PL: ['Telefon:', 'tel.', 'komórka:'],
};

function country(g: Gen): PhoneCountry {
  return g.pick(PHONE_COUNTRIES);
}

const PHONE_CLASSIC_TEMPLATES: Template[] = [
  (g) => {
    const c = country(g);
    const b = sb(`phone/signature-national-${c}`, 'prose');
    const ctx = g.pick(PHONE_CONTEXT[c]);
    return b.text(
      `Thanks,\n${g.name(c)}\n${g.company()}\n${ctx} ${b.s('phone', g.phone(c).national)}\n${g.city(c)}`,
    );
  },
  (g) => {
    const c = country(g);
    const b = sb(`phone/support-chat-national-${c}`, 'prose');
    const ctx = g.pick(PHONE_CONTEXT[c]);
    return b.text(
      `Customer (${g.first()}): please update my details — ${ctx} ${b.s('phone', g.phone(c).national)}. Thanks!`,
    );
  },
  (g) => {
    const b = sb('phone/support-chat-us', 'prose');
    const p = g.usPhone();
    return b.text(
      `Sure, ${g.pick(['call me at', 'my phone number is', 'text me at', 'my cell is'])} ${b.s('phone', p.text)} any time after 5pm.`,
    );
  },
  (g) => {
    const c = country(g);
    const b = sb(`phone/narration-international-${c}`, 'prose');
    return b.text(
      `Forwarding the incident to ${g.name(c)} (${b.s('phone', g.phone(c).international)}) for sign-off before the ${g.word()} rollout.`,
    );
  },
  (g) => {
    const c = country(g);
    const b = sb(`phone/commit-international-${c}`, 'prose');
    return b.text(
      `docs(oncall): update escalation contact to ${b.s('phone', g.phone(c).international)}\n\nRefs #${g.int(10, 4999)}`,
    );
  },
  (g) => {
    const c = country(g);
    const b = sb(`phone/json-national-${c}`, 'json');
    return b.json({
      id: g.int(1, 9999),
      name: g.name(c),
      phone: b.s('phone', g.phone(c).national),
      country: c,
    });
  },
  (g) => {
    const c = country(g);
    const b = sb(`phone/json-e164-${c}`, 'json');
    return b.json(
      { customer: { name: g.name(c), phone_number: b.s('phone', g.phone(c).e164), opted_in: g.chance(0.5) } },
      2,
    );
  },
  (g) => {
    const c = country(g);
    const b = sb(`phone/json-mobile-international-${c}`, 'json');
    return b.json({
      contact: { mobile: b.s('phone', g.phone(c).international), email_verified: true },
      locale: c,
    });
  },
  (g) => {
    const b = sb('phone/json-number-us', 'json');
    return b.json({ user_id: g.int(1, 99999), phone: b.n('phone', g.usPhone().digits), sms_enabled: true });
  },
  (g) => {
    const c = country(g);
    const b = sb(`phone/json-number-e164-${c}`, 'json');
    return b.json({
      msisdn_verified: true,
      mobile: b.n('phone', g.phone(c).e164.slice(1)),
      carrier: g.company(),
    });
  },
  (g) => {
    const c = country(g);
    const b = sb(`phone/yaml-oncall-${c}`, 'code');
    return b.text(
      `oncall:\n  primary: ${g.name(c)}\n  phone: "${b.s('phone', g.phone(c).international)}"\n  rotation: weekly\n`,
    );
  },
  (g) => {
    const c = country(g);
    const b = sb(`phone/sms-log-${c}`, 'log');
    return b.text(
      `${g.iso()} INFO notify: SMS to ${b.s('phone', g.phone(c).e164)} queued (sid SM${g.hex(32)}, segments ${g.int(1, 3)})`,
    );
  },
  (g) => {
    const c = country(g);
    const b = sb(`phone/python-twilio-${c}`, 'code');
    return b.text(
      `client.messages.create(\n    to="${b.s('phone', g.phone(c).e164)}",\n    from_="${b.s('phone', g.phone('US').e164)}",\n    body="Your code is ${g.digits(6)}",\n)`,
    );
  },
  (g) => {
    const c = country(g);
    const b = sb(`phone/vcard-${c}`, 'code');
    return b.text(
      `BEGIN:VCARD\nVERSION:3.0\nFN:${g.name(c)}\nTEL;TYPE=cell:${b.s('phone', g.phone(c).international)}\nEND:VCARD`,
    );
  },
  (g) => {
    const c = country(g);
    const b = sb(`phone/csv-international-${c}`, 'code');
    return b.text(`name;phone;city\n${g.name(c)};${b.s('phone', g.phone(c).international)};${g.city(c)}`);
  },
  (g) => {
    const b = sb('phone/json-note-us', 'json');
    return b.json({
      ticket: g.int(1000, 99999),
      note: `Customer asked us to call back at ${b.s('phone', g.usPhone().text)} tomorrow`,
      priority: 'high',
    });
  },
];

// How people name a region's number in English ("My Japanese number is …").
const DEMONYM: Record<NationalRegion, string> = {
  JP: 'Japanese',
  CN: 'Chinese',
  IL: 'Israeli',
  GB: 'UK',
  DE: 'German',
  FR: 'French',
  IN: 'Indian',
  BR: 'Brazilian',
  AU: 'Australian',
  KR: 'Korean',
  MX: 'Mexican',
};

const US_CUES = [
  'My US number is',
  'my US number is',
  'US:',
  'US phone:',
  'my number is',
  'My number is',
  'his number:',
  'her number is',
  'you can reach me at',
];
const NATIONAL_CUES = [
  'my number:',
  'my number is',
  'mobile',
  'Mobile:',
  'my mobile is',
  'cell:',
  'call me on',
  'phone:',
];

function region(g: Gen): NationalRegion {
  return g.pick(NATIONAL_REGIONS);
}

/**
 * The forms the issue reported missed: NANP numbers as people write them (`(415) 555-0132`,
 * `(415)555-0132`, `415-555-0132`, `415.555.0132`, `1-415-555-0132`, fictional 555-01xx included),
 * bare or after a cue; local seven-digit numbers; national numbers of other regions without a
 * country code, in their national format or as contiguous digits.
 */
export const PHONE_FORM_TEMPLATES: Template[] = [
  (g) => {
    const b = sb('phone/us-cue-prose', 'prose');
    return b.text(`${g.pick(US_CUES)} ${b.s('phone', g.nanpText())} — text first, I screen unknown calls.`);
  },
  (g) => {
    const b = sb('phone/us-bare-prose', 'prose');
    return b.text(
      `Escalate to ${g.name()} at ${b.s('phone', g.nanpText())} if the ${g.word()} job fails again tonight.`,
    );
  },
  (g) => {
    const b = sb('phone/us-and-national', 'prose');
    const r = region(g);
    return b.text(
      `Contacts for ${g.name()} — US: ${b.s('phone', g.nanpText())}, ${DEMONYM[r]}: ${b.s('phone', g.nationalPhone(r).national)}`,
    );
  },
  (g) => {
    const b = sb('phone/us-two-bare', 'prose');
    return b.text(
      `Office ${b.s('phone', g.nanpText())} or cell ${b.s('phone', g.nanpText())}; leave a message with ${g.first()}.`,
    );
  },
  (g) => {
    const b = sb('phone/us-json-bare', 'json');
    return b.json({
      id: g.int(1, 99999),
      name: g.name(),
      contact: b.s('phone', g.nanpText()),
      notes: `prefers SMS`,
    });
  },
  (g) => {
    const b = sb('phone/us-json-message', 'json');
    return b.json(
      {
        ticket: g.int(1000, 99999),
        message: `Voicemail from ${g.first()} (${b.s('phone', g.nanpText())}): please call back about order ${g.int(10000, 99999)}`,
        status: 'open',
      },
      2,
    );
  },
  (g) => {
    const b = sb('phone/us-log', 'log');
    return b.text(
      `${g.iso()} INFO voice: inbound call from ${b.s('phone', g.nanpText())} routed to queue ${g.word()} (wait ${g.int(1, 300)}s)`,
    );
  },
  (g) => {
    const b = sb('phone/us-test-fixture', 'code');
    const d = g.nanpDigits();
    return b.text(
      `it('formats a US number', () => {\n  expect(formatPhone('${b.s('phone', d)}')).toBe('${b.s('phone', `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`)}');\n});`,
    );
  },
  (g) => {
    const b = sb('phone/us-yaml-contact', 'code');
    return b.text(
      `support:\n  owner: ${g.name()}\n  contact: "${b.s('phone', g.nanpText())}"\n  hours: 9-17\n`,
    );
  },
  (g) => {
    const b = sb('phone/local-7-digit', 'prose');
    return b.text(
      `${g.pick(['If the line drops, call', 'Call', 'Front desk phone:', 'phone:', 'Or just call'])} ${b.s('phone', g.localPhone())} from the lobby.`,
    );
  },
  (g) => {
    const r = region(g);
    const b = sb(`phone/national-demonym-${r}`, 'prose');
    return b.text(
      `${g.pick(['My', 'my'])} ${DEMONYM[r]} number is ${b.s('phone', g.nationalPhone(r).written)}${g.pick(['.', ', WhatsApp works too.', ' if you need me while I travel.'])}`,
    );
  },
  (g) => {
    const r = region(g);
    const b = sb(`phone/national-cue-${r}`, 'prose');
    return b.text(
      `Sure — ${g.pick(NATIONAL_CUES)} ${b.s('phone', g.nationalPhone(r).written)}. I'm in ${g.city()} until Friday.`,
    );
  },
  (g) => {
    const r = region(g);
    const b = sb(`phone/national-contiguous-${r}`, 'prose');
    return b.text(
      `${g.pick(['my number is', 'My number is', 'my mobile is', 'call me on'])} ${b.s('phone', g.nationalPhone(r).digits)}, thanks`,
    );
  },
  (g) => {
    const r = region(g);
    const b = sb(`phone/national-json-${r}`, 'json');
    return b.json({ user: g.user(), mobile: b.s('phone', g.nationalPhone(r).national), region: r });
  },
  (g) => {
    const r = region(g);
    const b = sb(`phone/national-signature-${r}`, 'prose');
    return b.text(`Best,\n${g.name()}\nMobile ${b.s('phone', g.nationalPhone(r).national)}`);
  },
];

/** An SSN as a JSON number can hold: nine digits, no leading zero. */
function ssnDigits(g: Gen): string {
  for (;;) {
    const v = g.ssn('');
    if (v[0] !== '0') return v;
  }
}

export const SSN_TEMPLATES: Template[] = [
  (g) => {
    const b = sb('ssn/support-prose', 'prose');
    return b.text(
      `The applicant's SSN: ${b.s('ssn', g.ssn())} does not match the name on file (${g.name()}).`,
    );
  },
  (g) => {
    const b = sb('ssn/narration', 'prose');
    return b.text(
      `I found the record: Social Security number ${b.s('ssn', g.ssn())} was entered twice in the W-2 import, so the second row is rejected.`,
    );
  },
  (g) => {
    const b = sb('ssn/json-string', 'json');
    return b.json({
      name: g.name(),
      ssn: b.s('ssn', g.ssn('-')),
      dob: `19${g.int(50, 99)}-0${g.int(1, 9)}-1${g.int(0, 9)}`,
      status: 'pending',
    });
  },
  (g) => {
    const b = sb('ssn/json-number', 'json');
    return b.json({ employee: { id: `E${g.digits(5)}`, ssn: b.n('ssn', ssnDigits(g)) } }, 2);
  },
  (g) => {
    const b = sb('ssn/json-social-security-number', 'json');
    return b.json(
      { taxpayer: { social_security_number: b.s('ssn', g.ssn('-')), filing_status: 'single' } },
      2,
    );
  },
  (g) => {
    const b = sb('ssn/csv', 'code');
    return b.text(
      `employee_id,name,ssn,hire_date\nE${g.digits(4)},${g.name()},${b.s('ssn', g.ssn('-'))},${g.iso().slice(0, 10)}`,
    );
  },
  (g) => {
    const b = sb('ssn/log', 'log');
    return b.text(
      `${g.iso()} WARN kyc: ssn=${b.s('ssn', g.ssn('-'))} matched an existing applicant ${g.f.string.uuid()}`,
    );
  },
  (g) => {
    const b = sb('ssn/ts-fixture', 'code');
    return b.text(
      `export const applicant = {\n  name: '${g.name()}',\n  ssn: '${b.s('ssn', g.ssn('-'))}',\n  income: ${g.int(20, 250)}000,\n};`,
    );
  },
  (g) => {
    const b = sb('ssn/sql', 'code');
    return b.text(
      `INSERT INTO employees (name, ssn, hired_at) VALUES ('${g.name()}', '${b.s('ssn', g.ssn('-'))}', '${g.iso().slice(0, 10)}');`,
    );
  },
  (g) => {
    const b = sb('ssn/form-prose', 'prose');
    return b.text(
      `Tax ID / SSN ${b.s('ssn', g.ssn())} — verified by ${g.first()} on ${g.iso().slice(0, 10)}.`,
    );
  },
  (g) => {
    const b = sb('ssn/prose-undashed', 'prose');
    return b.text(`Form 1040 draft for ${g.name()} — SSN: ${b.s('ssn', g.ssn(''))}, filing status single.`);
  },
];

/** Every phone template: the classic carriers and the written forms, interleaved. */
export const PHONE_TEMPLATES: Template[] = interleave(PHONE_CLASSIC_TEMPLATES, PHONE_FORM_TEMPLATES);

/** `a` and `b` alternated (the rest of the longer one at the end): each fill round mixes both. */
export function interleave<T>(a: readonly T[], b: readonly T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (i < a.length) out.push(a[i] as T);
    if (i < b.length) out.push(b[i] as T);
  }
  return out;
}
