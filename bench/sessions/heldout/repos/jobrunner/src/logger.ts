export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export function jsonLogger(out: NodeJS.WritableStream = process.stdout): Logger {
  const line = (level: string) => (msg: string, fields: Record<string, unknown> = {}) => {
    out.write(JSON.stringify({ ts: new Date().toISOString(), level, msg, ...fields }) + "\n");
  };
  return { info: line("info"), warn: line("warn"), error: line("error") };
}
