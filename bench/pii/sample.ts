// Labelled samples of the PII benchmark, built by construction: a template places each value
// through a slot, and the slot's raw offsets in the final text are its label. In JSON carriers the
// text is serialized first and the offsets are those of the value's characters as written (its
// JSON escapes included; a number slot is the bare digits of a JSON number).

/** A labelled value: UTF-16 offsets into the sample's text, `end` exclusive. */
export interface Span {
  type: string;
  start: number;
  end: number;
}

/** Where a sample's text comes from: prose, a JSON tool output, code or config, a log. */
export type CarrierKind = 'prose' | 'json' | 'code' | 'log';

export interface Sample {
  text: string;
  spans: Span[];
  kind: CarrierKind;
  /** The template that made it (`phone/support-chat`): a name, never a value. */
  carrier: string;
}

/** A non-PII string of a developer's session: any match in it is a false positive. */
export interface Negative {
  text: string;
  /** The family that made it (`version/four-part`). */
  family: string;
}

interface Slot {
  type: string;
  value: string;
}

// Private-use characters: JSON.stringify writes them as they are and no template holds them.
const OPEN = '\uE000';
const CLOSE = '\uE001';
const NUM_OPEN = '\uE002';
const NUM_CLOSE = '\uE003';
const RESOLVE = /"\uE002(\d+)\uE003"|\uE000(\d+)\uE001/g;

/**
 * Collects the slots of one sample. `s()` returns a marker to write where the value goes (inside a
 * template literal or a JSON string); `n()` a marker for a JSON number value (the whole value).
 */
export class SampleBuilder {
  private readonly slots: Slot[] = [];

  constructor(
    private readonly carrier: string,
    private readonly kind: CarrierKind,
  ) {}

  /** A labelled value written as text. */
  s(type: string, value: string): string {
    this.slots.push({ type, value });
    return `${OPEN}${this.slots.length - 1}${CLOSE}`;
  }

  /** A labelled value written as a JSON number (digits only); use only as a whole JSON value. */
  n(type: string, digits: string): string {
    if (!/^[1-9]\d*$/.test(digits)) throw new RangeError('a number slot holds digits without a leading 0');
    this.slots.push({ type, value: digits });
    return `${NUM_OPEN}${this.slots.length - 1}${NUM_CLOSE}`;
  }

  /** A plain-text sample: values are written as they are. */
  text(template: string): Sample {
    return this.resolve(template, (v) => v);
  }

  /** A JSON sample: `value` is serialized, then each value is written in its JSON encoding. */
  json(value: unknown, indent?: number): Sample {
    return this.resolve(JSON.stringify(value, null, indent), (v) => JSON.stringify(v).slice(1, -1));
  }

  private resolve(written: string, encode: (value: string) => string): Sample {
    const spans: Span[] = [];
    let text = '';
    let pos = 0;
    for (const m of written.matchAll(RESOLVE)) {
      text += written.slice(pos, m.index);
      const isNumber = m[1] !== undefined;
      const slot = this.slots[Number(m[1] ?? m[2])];
      if (!slot) throw new Error(`unknown slot in ${this.carrier}`);
      const raw = isNumber ? slot.value : encode(slot.value);
      spans.push({ type: slot.type, start: text.length, end: text.length + raw.length });
      text += raw;
      pos = m.index + m[0].length;
    }
    text += written.slice(pos);
    if (text.includes(NUM_OPEN) || spans.length !== this.slots.length) {
      throw new Error(`unresolved slot in ${this.carrier}`);
    }
    return { text, spans, kind: this.kind, carrier: this.carrier };
  }
}

/**
 * A value's shape, never its characters: digits → d, upper → A, lower → a, other characters as
 * they are (newlines as ⏎); an alphanumeric run longer than 8 becomes `d{13}` / `A{..}` / `a{..}`
 * (one class) or `w{..}` (mixed). Long shapes are cut.
 */
export function shapeOf(value: string): string {
  let out = '';
  for (const run of value.match(/[A-Za-z0-9]+|[^A-Za-z0-9]/g) ?? []) {
    if (run.length > 8 && /^[A-Za-z0-9]+$/.test(run)) {
      const cls = /^\d+$/.test(run) ? 'd' : /^[A-Z]+$/.test(run) ? 'A' : /^[a-z]+$/.test(run) ? 'a' : 'w';
      out += `${cls}{${run.length}}`;
    } else {
      out += run.replace(/[0-9A-Za-z\n]/g, (c) => (c === '\n' ? '⏎' : c <= '9' ? 'd' : c <= 'Z' ? 'A' : 'a'));
    }
  }
  return out.length > 44 ? `${out.slice(0, 43)}…` : out;
}
