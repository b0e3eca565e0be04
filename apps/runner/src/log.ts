export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** One JSON line per entry on stderr, so stdout stays free for the CLI. */
export const jsonLogger: Logger = {
  info: (msg, fields) => write("info", msg, fields),
  warn: (msg, fields) => write("warn", msg, fields),
  error: (msg, fields) => write("error", msg, fields),
};

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

function write(level: string, msg: string, fields?: Record<string, unknown>) {
  process.stderr.write(JSON.stringify({ t: new Date().toISOString(), level, msg, ...fields }) + "\n");
}
