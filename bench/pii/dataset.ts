// The labelled set: for each default type, its templates in turn until it has its target of
// labelled values (templates may label other types too: those count for their own type), and the
// non-PII strings. Everything comes from one seed.

import { NEGATIVE_FAMILIES, buildNegatives } from './negatives.js';
import { DEFAULT_ID_TYPES, optInTemplates } from './opt-in.js';

export { DEFAULT_ID_TYPES };
import { EMAIL_TEMPLATES, PHONE_TEMPLATES, SSN_TEMPLATES } from './positives-contact.js';
import { CARD_TEMPLATES, IBAN_TEMPLATES } from './positives-payment.js';
import type { Template } from './positives-contact.js';
import { IP_TEMPLATES, SECRET_TEMPLATES } from './positives-infra.js';
import type { Negative, Sample } from './sample.js';
import { Gen } from './values.js';

/** Labelled values per default type (phone, card and IBAN raised so the added forms are a real share). */
export const DEFAULT_TARGETS: Record<string, number> = {
  email: 200,
  phone: 400,
  ssn: 200,
  credit_card: 300,
  iban: 300,
  ip_address: 200,
  secret: 200,
};
/** Labelled values per national-ID type of the default table. */
export const ID_TARGET = 120;
export const OPT_IN_TARGET = 60;
/** Non-PII strings per family. */
export const NEGATIVES_PER_FAMILY = 15;

const TEMPLATES: Record<string, Template[]> = {
  email: EMAIL_TEMPLATES,
  phone: PHONE_TEMPLATES,
  ssn: SSN_TEMPLATES,
  credit_card: CARD_TEMPLATES,
  iban: IBAN_TEMPLATES,
  ip_address: IP_TEMPLATES,
  secret: SECRET_TEMPLATES,
};

export interface Dataset {
  seed: number;
  samples: Sample[];
  negatives: Negative[];
}

function fill(g: Gen, type: string, templates: readonly Template[], target: number, into: Sample[]): void {
  let labelled = 0;
  for (let i = 0; labelled < target; i++) {
    const sample = (templates[i % templates.length] as Template)(g);
    labelled += sample.spans.filter((s) => s.type === type).length;
    into.push(sample);
  }
}

/** The default set: the seven classic types, then the national-ID types (opt-in.ts templates). */
export function buildDataset(seed: number): Dataset {
  const g = new Gen(seed);
  const samples: Sample[] = [];
  for (const [type, templates] of Object.entries(TEMPLATES))
    fill(g, type, templates, DEFAULT_TARGETS[type] ?? 200, samples);
  for (const type of DEFAULT_ID_TYPES) fill(g, type, optInTemplates(type), ID_TARGET, samples);
  return { seed, samples, negatives: buildNegatives(g, NEGATIVES_PER_FAMILY * NEGATIVE_FAMILIES) };
}

/** Samples of the opt-in types (a separate stream of the same seed: the default set never moves). */
export function buildOptInSamples(
  seed: number,
  types: readonly string[],
): { samples: Sample[]; unknown: string[] } {
  const g = new Gen(seed + 1);
  const samples: Sample[] = [];
  const unknown: string[] = [];
  for (const type of types) {
    const templates = optInTemplates(type);
    if (templates.length === 0) unknown.push(type);
    else fill(g, type, templates, OPT_IN_TARGET, samples);
  }
  return { samples, unknown };
}
