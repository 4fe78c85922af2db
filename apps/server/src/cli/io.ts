/** Where the CLI writes: stdout for results, stderr for errors and notes. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** The process's stdout/stderr. */
export const processIo: CliIo = {
  out: (text) => void process.stdout.write(text.endsWith("\n") ? text : `${text}\n`),
  err: (text) => void process.stderr.write(text.endsWith("\n") ? text : `${text}\n`),
};
