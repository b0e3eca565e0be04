import type { LogFn, Logger } from "@crumbs/telemetry";
import type { FromRelayThread } from "./relay-protocol.ts";

type Level = "error" | "warn" | "info" | "debug";

/**
 * The relay thread's logger: each call goes to the main thread, which writes it with the API's
 * logger, so the thread's lines have the process's format, level and `name`. Fields cross by
 * structured clone (an `err` keeps its message and stack); what cannot be cloned is sent as text.
 */
export function threadLogger(
  post: (m: FromRelayThread) => void,
  bindings: Record<string, unknown> = {},
): Logger {
  const at =
    (level: Level): LogFn =>
    (fieldsOrMsg: object | string, msg?: string) => {
      const [fields, text] = typeof fieldsOrMsg === "string" ? [{}, fieldsOrMsg] : [fieldsOrMsg, msg];
      const all = { ...bindings, ...fields };
      try {
        post({ type: "log", level, fields: all, msg: text });
      } catch {
        post({
          type: "log",
          level,
          fields: {
            fields: String(JSON.stringify(all, (_k, v: unknown) => (v instanceof Error ? v.message : v))),
          },
          msg: text,
        });
      }
    };
  return {
    error: at("error"),
    warn: at("warn"),
    info: at("info"),
    debug: at("debug"),
    child: (more) => threadLogger(post, { ...bindings, ...more }),
  };
}
