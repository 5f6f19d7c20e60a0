// Carriers of payment PII: card numbers and IBANs in prose, JSON tool outputs, code and logs.

import { interleave, sb } from './positives-contact.js';
import type { Template } from './positives-contact.js';

const CARD_CLASSIC_TEMPLATES: Template[] = [
  (g) => {
    const b = sb('card/support-prose', 'prose');
    return b.text(
      `Charge failed for card ${b.s('credit_card', g.cardText())}, exp 0${g.int(1, 9)}/${g.int(26, 31)} — the customer asked us to retry tomorrow.`,
    );
  },
  (g) => {
    const b = sb('card/chat', 'prose');
    return b.text(
      `My credit card number is ${b.s('credit_card', g.cardText())}, can you check why it was declined?`,
    );
  },
  (g) => {
    const b = sb('card/json-card-number', 'json');
    return b.json({
      card_number: b.s('credit_card', g.cardText()),
      exp_month: g.int(1, 12),
      exp_year: g.int(2026, 2031),
      cvc: g.digits(3),
    });
  },
  (g) => {
    const b = sb('card/json-nested', 'json');
    return b.json(
      {
        payment_method: {
          type: 'card',
          card: { number: b.s('credit_card', g.card().digits), brand: 'visa' },
        },
        amount: g.int(100, 99999),
      },
      2,
    );
  },
  (g) => {
    const b = sb('card/curl-form', 'code');
    return b.text(
      `curl https://api.stripe.com/v1/payment_methods \\\n  -d type=card \\\n  -d "card[number]=${b.s('credit_card', g.card().digits)}" \\\n  -d "card[exp_month]=${g.int(1, 12)}"`,
    );
  },
  (g) => {
    const b = sb('card/csv', 'code');
    return b.text(
      `order_id,amount,card\n${g.int(100000, 999999)},${g.int(1, 999)}.${g.digits(2)},${b.s('credit_card', g.cardText())}`,
    );
  },
  (g) => {
    const b = sb('card/python-test', 'code');
    return b.text(
      `def test_declined():\n    result = pay(card="${b.s('credit_card', g.card().digits)}", cvv="${g.digits(3)}")\n    assert result.status == "declined"`,
    );
  },
  (g) => {
    const b = sb('card/log', 'log');
    return b.text(
      `${g.iso()} DEBUG payments: tokenizing pan=${b.s('credit_card', g.card().digits)} merchant=${g.upperAlnum(10)} attempt=${g.int(1, 3)}`,
    );
  },
  (g) => {
    const b = sb('card/receipt', 'prose');
    return b.text(
      `Receipt #${g.int(1000, 9999)}\nPaid with ${g.pick(['Visa', 'Mastercard', 'Amex'])} ${b.s('credit_card', g.cardText())}\nTotal: $${g.int(5, 500)}.${g.digits(2)}`,
    );
  },
  (g) => {
    const b = sb('card/json-number', 'json');
    return b.json({
      order: g.int(1000, 99999),
      card_number: b.n('credit_card', g.card().digits),
      amount: g.int(100, 99999),
    });
  },
];

const IBAN_CLASSIC_TEMPLATES: Template[] = [
  (g) => {
    const b = sb('iban/support-prose', 'prose');
    return b.text(`Please wire the refund to IBAN ${b.s('iban', g.iban())} (account holder ${g.name()}).`);
  },
  (g) => {
    const b = sb('iban/invoice', 'prose');
    return b.text(
      `Bank: ${g.company()}\nIBAN: ${b.s('iban', g.iban())}\nBIC: ${g.f.finance.bic()}\nReference: INV-${g.digits(6)}`,
    );
  },
  (g) => {
    const b = sb('iban/json', 'json');
    return b.json({ holder: g.name(), iban: b.s('iban', g.iban()), bic: g.f.finance.bic(), currency: 'EUR' });
  },
  (g) => {
    const b = sb('iban/json-nested', 'json');
    return b.json(
      {
        payout: {
          id: `po_${g.alnum(14)}`,
          account: { iban: b.s('iban', g.iban(false)) },
          amount: g.int(100, 99999),
        },
      },
      2,
    );
  },
  (g) => {
    const b = sb('iban/sepa-xml', 'code');
    return b.text(`<CdtrAcct>\n  <Id>\n    <IBAN>${b.s('iban', g.iban(false))}</IBAN>\n  </Id>\n</CdtrAcct>`);
  },
  (g) => {
    const b = sb('iban/yaml', 'code');
    return b.text(`beneficiary:\n  name: ${g.company()}\n  iban: ${b.s('iban', g.iban())}\n`);
  },
  (g) => {
    const b = sb('iban/log', 'log');
    return b.text(
      `${g.iso()} INFO sepa: mandate MD-${g.digits(8)} created for ${b.s('iban', g.iban(false))}`,
    );
  },
  (g) => {
    const b = sb('iban/german-prose', 'prose');
    return b.text(
      `Bitte überweisen Sie den Betrag auf das Konto ${b.s('iban', g.iban())} bis zum ${g.int(1, 28)}.06.`,
    );
  },
  (g) => {
    const b = sb('iban/python-test', 'code');
    return b.text(`assert validate_iban("${b.s('iban', g.iban(false))}")`);
  },
];

/** 15-digit cards (Amex 34/37, UATP 1…): contiguous, 4-6-5, 4-5-6 or 4-4-4-3. */
const CARD_15_TEMPLATES: Template[] = [
  (g) => {
    const b = sb('card/15-chat', 'prose');
    return b.text(
      `${g.pick(['My card number is', 'The card is', 'Card:', 'card number'])} ${b.s('credit_card', g.card15Text())}, expiring ${g.int(1, 12)}/${g.int(26, 31)}.`,
    );
  },
  (g) => {
    const b = sb('card/15-airline-prose', 'prose');
    return b.text(
      `The fare was charged to the ${g.pick(['UATP', 'corporate travel'])} account ${b.s('credit_card', g.card15Text(g.card15('uatp').digits))} on booking ${g.upperAlnum(6)}.`,
    );
  },
  (g) => {
    const b = sb('card/15-json', 'json');
    return b.json({
      card_number: b.s('credit_card', g.card15Text()),
      holder: g.name(),
      exp: `${g.int(1, 12)}/${g.int(26, 31)}`,
    });
  },
  (g) => {
    const b = sb('card/15-json-number', 'json');
    return b.json({ order: g.int(1000, 99999), pan: b.n('credit_card', g.card15().digits), currency: 'USD' });
  },
  (g) => {
    const b = sb('card/15-log', 'log');
    return b.text(
      `${g.iso()} WARN billing: authorization declined for ${b.s('credit_card', g.card15Text())} (code ${g.int(1, 99)})`,
    );
  },
  (g) => {
    const b = sb('card/15-test', 'code');
    return b.text(
      `const AMEX_OK = '${b.s('credit_card', g.card15Text(g.card15('amex').digits))}';\nconst UATP_OK = '${b.s('credit_card', g.card15Text(g.card15('uatp').digits))}';`,
    );
  },
];

/** Dash-separated IBANs (`AL47-2121-1009-…`), and space-separated and contiguous ones in new carriers. */
const IBAN_FORM_TEMPLATES: Template[] = [
  (g) => {
    const b = sb('iban/dash-prose', 'prose');
    return b.text(`My IBAN is ${b.s('iban', g.iban('dash'))}, please send the deposit back there.`);
  },
  (g) => {
    const b = sb('iban/dash-json', 'json');
    return b.json({
      beneficiary: g.company(),
      account: b.s('iban', g.iban('dash')),
      reference: `INV-${g.digits(6)}`,
    });
  },
  (g) => {
    const b = sb('iban/dash-form', 'prose');
    return b.text(
      `Account holder: ${g.name()}\nIBAN: ${b.s('iban', g.iban('dash'))}\nSWIFT: ${g.f.finance.bic()}`,
    );
  },
  (g) => {
    const b = sb('iban/space-chat', 'prose');
    return b.text(`you can pay me at ${b.s('iban', g.iban('space'))} (${g.first()})`);
  },
  (g) => {
    const b = sb('iban/compact-log', 'log');
    return b.text(
      `${g.iso()} ERROR payouts: transfer to ${b.s('iban', g.iban(g.pick(['compact', 'dash'] as const)))} rejected: ${g.pick(['AC01', 'AC04', 'AM04'])}`,
    );
  },
];

export const CARD_TEMPLATES: Template[] = interleave(CARD_CLASSIC_TEMPLATES, CARD_15_TEMPLATES);
export const IBAN_TEMPLATES: Template[] = interleave(IBAN_CLASSIC_TEMPLATES, IBAN_FORM_TEMPLATES);
