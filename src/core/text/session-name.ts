// A file of several sessions (an aider chat history) is several transcripts, named `FILE#N` in
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
