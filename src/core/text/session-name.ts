// A file of several sessions (an aider chat history, an OpenHands output) is several transcripts, named `FILE#N` in
// reports and golden names. Places that need the file itself (GitHub annotations attach only to a
// file of the repository) split the name again here.

/** `FILE#N` when the file holds more than one session; the plain file name otherwise. */
export function sessionName(file: string, n: number, count: number): string {
  return count > 1 ? `${file}#${n}` : file;
}

/** The file and the `session N: ` prefix of a transcript name (an empty prefix for a plain file). */
export function splitSessionName(name: string): { file: string; prefix: string } {
  const m = /^(.+)#([1-9]\d*)$/.exec(name);
  return m ? { file: m[1] as string, prefix: `session ${m[2] as string}: ` } : { file: name, prefix: '' };
}

/**
 * What a session stands for, when its transcript's meta says: an OpenHands evaluation row's
 * `instance_id`, else the resolver's issue number (`issue 5`). Undefined for anything else.
 */
export function sessionLabel(meta: Readonly<Record<string, unknown>>): string | undefined {
  const id = meta['instance_id'];
  if (typeof id === 'string' && id.trim() !== '') return id;
  if (typeof id === 'number') return String(id);
  const issue = meta['issue_number'];
  return typeof issue === 'number' ? `issue ${issue}` : undefined;
}

/** `FILE#N (label)`: a transcript name followed by the run it stands for, when there is one. */
export function labelledName(name: string, label: string | undefined): string {
  return label === undefined ? name : `${name} (${label})`;
}
