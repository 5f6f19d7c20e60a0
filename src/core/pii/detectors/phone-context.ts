// Context words that make a national phone number out of a bare digit run: the run must follow
// one of them closely (CONTEXT_WINDOW characters). Two strengths:
// - a PHONE word (phone, tel, mobile, WhatsApp, call me…): any number in a phone shape after it
//   is masked, whatever its region or validity;
// - the word NUMBER (`my number is`, `US number:`, `Nummer`, `número`, `番号`…), which people use
//   for their phone as often as for anything else: a number after it is masked when it is a
//   valid number of a listed region. Not when an identifier noun names it (`order number …`,
//   `build number …`, `line number …`) or it counts something (`number of rows`).
// `contact`, `call` far from the number and `id` are no context at all.
import { windowBefore } from './scan.js';

/** How far before a national number its context word may stand. */
export const CONTEXT_WINDOW = 30;

// Phone words anywhere in the window, case-insensitive. Whole words for the short ones (`hotel`,
// `telemetry`, `cellar`, `smsc` are no context); word-boundary tests only work on ASCII, so the
// non-Latin words stand alone.
const PHONE_WORDS = new RegExp(
  [
    // English, and substrings shared with other languages: telephone, téléphone, smartphone,
    // phone_number, phoneNumber; mobile/Mobil/Mobilnummer/mobilnummer.
    'phone',
    '\\bt[eé]l\\b', // tel, Tel., tél, tel:
    '\\btel[eé]f', // Telefon (de, pl, sv, no, da), telefono (it, es), teléfono, telefone (pt), telefoon (nl)
    '\\b(?:tlf|tel\\.?-?nr)\\b', // Danish/Norwegian and German abbreviations (not `tfn`: a tax file number)
    '\\bmobil',
    '\\bcell(?:ular|phone|ulare)?\\b',
    '\\bcelular\\b',
    '\\bm[oó]vil\\b',
    '\\bmobiel\\b',
    '\\btelem[oó]vel\\b',
    '\\bkom[oó]rk',
    '\\bgsm\\b',
    '\\bfax\\b',
    '\\bsms\\b',
    '\\bwhats\\s?app\\b',
    '\\bportable\\b',
    '\\bhandy\\b',
    '\\brufnummer',
    '\\bfestnetz',
    '\\banruf',
    // Phrases: call me, call us, text me, ring us, llámame.
    '\\b(?:call|text|ring|phone)\\s+(?:me|us)\\b',
    '\\bll[aá]m(?:ame|anos)\\b',
    '\\bchiamami\\b',
    // `contact number`, `callback number`: a generic noun made specific by a phone-ish one.
    '\\b(?:contact|call-?back|emergency)\\s*(?:number|no\\b|nr\\b|#)',
    // Japanese/Chinese 電話/电话 (denwa, diànhuà), 携帯 (keitai), 手机/手機 (mobile);
    // Korean 전화, 휴대폰, 핸드폰; Russian телефон, тел.; symbols.
    '電話|电话|携帯|手机|手機|전화|휴대폰|핸드폰|телефон|тел\\.|☎|📞|📱',
  ].join('|'),
  'i',
);

// `call` alone is context only right before the number (`call 415 555 2671`, `calling: …`,
// `call me at (415) …`, `call back at …`): further away it is an API or function call (`tool
// call took 1718000000`).
const CALL_BEFORE =
  /\bcall(?:ing|ed)?(?:\s+(?:me|us|him|her|them))?(?:\s+back)?(?:\s+(?:at|on))?\s*[:-]?\s*$/i;

// An identifier noun right before the number outweighs an earlier phone word: `call me about
// order 4155552671`, `phone ticket number 4155552671`.
const ID_BEFORE =
  /\b(?:order|build|ticket|account|acct|invoice|tracking|case|reference|ref|pr|issue|job|run|transaction|txn|customer|member|user|session|request|serial|part|item|sku|batch|lot|policy|claim|booking|confirmation|receipt|shipment|parcel|id)(?:[\s_-]*(?:number|no\.?|nr\.?|num\.?|id|#))?["']?\s*[:=]?\s*["']?\s*$/i;

// `number` in the languages of PHONE_WORDS, with the word before it (an identifier noun there
// makes it an identifier's number).
const NUMBER_WORD =
  /(?:([\p{L}]+)[\s_-]+)?(?<!\p{L})(?:numbers?|nummer|num[eé]ro|n[uú]mero|номер|番号|号码|號碼|번호)(?!\p{L})(\s+of\b)?/giu;

// Nouns whose number is not a phone number (besides those of ID_BEFORE, which may also stand
// right before the digits): `line number 12345678`, `card number …`, `social security number …`.
const ID_NOUNS = new Set([
  ...'order build ticket account acct invoice tracking case reference ref pr issue job run transaction txn customer member user session request serial part item sku batch lot policy claim booking confirmation receipt shipment parcel id'.split(
    ' ',
  ),
  ...'line port version error exit page row column step pid process card security ssn tax vat license licence registration routing bank iban passport employee student model product seat room flight record document file commit revision sequence phase check cheque container pin otp code random magic social nhs health patient medical insurance national identity aadhaar aadhar uid dni nif nie cif tfn nino pan itin ein po purchase project vendor supplier'.split(
    ' ',
  ),
]);

/** How strongly the window before `start` says that a phone number follows. */
export type PhoneCue = 'phone' | 'number' | undefined;

// A cheap test that lets most windows skip NUMBER_WORD and ID_BEFORE (every run of seven digits
// or more asks for its cue, and most have none).
const NUMBER_HINT = /n[uú]m|номер|番号|号码|號碼|번호/i;

/** The context before `start`: a phone word, the word `number`, or nothing. */
export function phoneCueAt(text: string, start: number): PhoneCue {
  // One character more than the window, so that `\b` sees what precedes the window's first word.
  const before = windowBefore(text, start, CONTEXT_WINDOW);
  const phone = PHONE_WORDS.test(before) || CALL_BEFORE.test(before);
  if (!phone && !NUMBER_HINT.test(before)) return undefined;
  if (ID_BEFORE.test(before)) return undefined;
  if (phone) return 'phone';
  return hasNumberWord(before) ? 'number' : undefined;
}

function hasNumberWord(before: string): boolean {
  NUMBER_WORD.lastIndex = 0;
  for (let m = NUMBER_WORD.exec(before); m !== null; m = NUMBER_WORD.exec(before)) {
    if (m[2] !== undefined) continue; // `number of rows`
    if (m[1] !== undefined && ID_NOUNS.has(m[1].toLowerCase())) continue;
    return true;
  }
  return false;
}
