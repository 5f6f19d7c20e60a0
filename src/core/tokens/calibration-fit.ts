// The calibration a team measures: provider-reported input tokens against our local count of the
// same contexts. The factor is the ratio of the sums (long contexts weigh more, as they do in a
// budget), rounded UP to 2 decimals so a budget calibrated with it errs on the safe side.

/** One transcript: our count of its stabilized context and what the provider reported for it. */
export interface CalibrationSample {
  local: number;
  provider: number;
}

export interface CalibrationFit {
  samples: number;
  local: number;
  provider: number;
  /** Σ provider ÷ Σ local, unrounded. */
  ratio: number;
  /** The lowest and highest per-transcript ratio: a wide spread means the factor is a rough one. */
  min: number;
  max: number;
  /** The `calibration` to write in the policy: `ratio` rounded up to 2 decimals, within 0.25–4. */
  suggested: number;
}

/** Rounded up to hundredths, with a guard so an exact 1.2 stays 1.2. */
function ceilHundredths(n: number): number {
  return Math.ceil(n * 100 - 1e-9) / 100;
}

/** The fit of the samples; undefined when there is nothing to fit (no sample with tokens on both sides). */
export function fitCalibration(samples: readonly CalibrationSample[]): CalibrationFit | undefined {
  const usable = samples.filter((s) => s.local > 0 && s.provider > 0);
  if (usable.length === 0) return undefined;
  let local = 0;
  let provider = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const s of usable) {
    local += s.local;
    provider += s.provider;
    const r = s.provider / s.local;
    if (r < min) min = r;
    if (r > max) max = r;
  }
  const ratio = provider / local;
  const suggested = Math.min(4, Math.max(0.25, ceilHundredths(ratio)));
  return { samples: usable.length, local, provider, ratio, min, max, suggested };
}
