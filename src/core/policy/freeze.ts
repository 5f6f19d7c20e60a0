// Policies are shared by every stage and by concurrent transcripts: freezing them turns an
// accidental mutation into an immediate TypeError instead of a cross-run heisenbug.

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
