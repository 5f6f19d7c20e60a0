// Context words that make a national phone number out of a bare digit run: the run must follow
// one of them closely (CONTEXT_WINDOW characters). Generic words (`number`, `contact`, `call`
// far from the number, `id`) are no context: transcripts are full of `order number 4155552671`,
// `build number …` and `ticket number …`, and those are dialable-looking identifiers.
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

/** Whether a phone context word stands in the window before `start` (and no identifier noun right before it). */
export function hasPhoneContext(text: string, start: number): boolean {
  // One character more than the window, so that `\b` sees what precedes the window's first word.
  const before = windowBefore(text, start, CONTEXT_WINDOW);
  if (!PHONE_WORDS.test(before) && !CALL_BEFORE.test(before)) return false;
  return !ID_BEFORE.test(before);
}
