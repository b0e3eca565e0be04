import { connect, type Socket } from "node:net";

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

interface Pending {
  text: string;
  resolve(res: HttpResponse): void;
  reject(err: Error): void;
}

/**
 * A keep-alive HTTP/1.1 client on plain sockets, one request at a time per socket: the request
 * goes out as one write of one string, and the response is read with just enough parsing for
 * what the API sends (Content-Length or chunked bodies).
 *
 * Why not node:http or fetch: the load generator shares the machine's two cores with the API,
 * Postgres and NATS, so its CPU per request is taken from what it measures, while pgbench, the
 * baseline, is a C client (5% of the machine during its run). Sampled with `perf record -a`
 * during the write-path suite, the load generator took 8.1% of the machine on node:http (fetch
 * costs about twice node:http) and 3.6% on this client with prebuilt bodies
 * (page-context.ts). autocannon works the same way.
 */
export class HttpClient {
  private readonly host: string;
  private readonly port: number;
  private readonly idle: Connection[] = [];
  private readonly waiting: Pending[] = [];
  private open = 0;
  private closed = false;

  constructor(
    baseUrl: string,
    private readonly token: string,
    private readonly maxSockets = 32,
  ) {
    const url = new URL(baseUrl);
    if (url.protocol !== "http:") throw new Error(`HttpClient speaks plain http, not ${url.protocol}`);
    this.host = url.hostname;
    this.port = Number(url.port || 80);
  }

  request(method: string, path: string, opts: { body?: unknown; headers?: Record<string, string> } = {}): Promise<HttpResponse> {
    const payload = opts.body === undefined ? undefined : typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
    let head = `${method} ${path} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\nauthorization: Bearer ${this.token}\r\n`;
    const { "content-type": type = "application/json", ...headers } = opts.headers ?? {};
    if (payload !== undefined) head += `content-type: ${type}\r\ncontent-length: ${Buffer.byteLength(payload)}\r\n`;
    else if (method !== "GET" && method !== "HEAD") head += "content-length: 0\r\n";
    for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`;
    const text = `${head}\r\n${payload ?? ""}`;
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error("HttpClient is closed"));
      this.dispatch({ text, resolve, reject });
    });
  }

  /** Like request, but a status other than `expect` throws with the body. */
  async json<T>(method: string, path: string, expect: number, opts: { body?: unknown; headers?: Record<string, string> } = {}): Promise<T> {
    const res = await this.request(method, path, opts);
    if (res.status !== expect) throw new Error(`${method} ${path}: ${res.status} ${res.body.slice(0, 300)}`);
    return JSON.parse(res.body) as T;
  }

  close(): void {
    this.closed = true;
    for (const p of this.waiting.splice(0)) p.reject(new Error("HttpClient is closed"));
    for (const c of this.idle.splice(0)) c.destroy();
  }

  private dispatch(p: Pending): void {
    const conn = this.idle.pop();
    if (conn) return conn.send(p);
    if (this.open < this.maxSockets) {
      this.open++;
      return new Connection(this.host, this.port, (c, reusable) => this.released(c, reusable), (c) => this.lost(c)).send(p);
    }
    this.waiting.push(p);
  }

  /** An idle socket the server closed (its keep-alive timeout): it leaves the pool. */
  private lost(conn: Connection): void {
    const i = this.idle.indexOf(conn);
    if (i === -1) return;
    this.idle.splice(i, 1);
    this.open--;
  }

  private released(conn: Connection, reusable: boolean): void {
    if (!reusable || this.closed) {
      conn.destroy();
      this.open--;
      const next = this.waiting.shift();
      if (next && !this.closed) this.dispatch(next);
      return;
    }
    const next = this.waiting.shift();
    if (next) conn.send(next);
    else this.idle.push(conn);
  }
}

const HEADER_END = Buffer.from("\r\n\r\n");

/** One socket; `done` hands it back after each response (reusable: false when it cannot carry another). */
class Connection {
  private readonly socket: Socket;
  private current: Pending | undefined;
  private buffered: Buffer = Buffer.alloc(0);

  constructor(
    host: string,
    port: number,
    private readonly done: (c: Connection, reusable: boolean) => void,
    lost: (c: Connection) => void,
  ) {
    this.socket = connect({ host, port, noDelay: true });
    this.socket.on("data", (chunk: Buffer) => this.onData(chunk));
    const fail = (err: Error) => {
      const p = this.current;
      this.current = undefined;
      if (p) {
        p.reject(err);
        this.done(this, false);
      } else lost(this);
    };
    this.socket.on("error", fail);
    this.socket.on("close", () => fail(new Error("socket closed before the response ended")));
  }

  send(p: Pending): void {
    this.current = p;
    this.buffered = Buffer.alloc(0);
    this.socket.write(p.text);
  }

  destroy(): void {
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const parsed = parseResponse(this.buffered);
    if (!parsed || !this.current) return;
    const p = this.current;
    this.current = undefined;
    this.buffered = Buffer.alloc(0);
    p.resolve(parsed.response);
    this.done(this, parsed.keepAlive);
  }
}

/** The whole response in `buf`, or undefined while it is incomplete. */
export function parseResponse(buf: Buffer): { response: HttpResponse; keepAlive: boolean } | undefined {
  const end = buf.indexOf(HEADER_END);
  if (end === -1) return undefined;
  const lines = buf.toString("latin1", 0, end).split("\r\n");
  const status = Number(lines[0]!.split(" ")[1]);
  const headers: Record<string, string | string[] | undefined> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const prior = headers[name];
    headers[name] = prior === undefined ? value : Array.isArray(prior) ? [...prior, value] : [prior, value];
  }
  const start = end + HEADER_END.length;
  const keepAlive = String(headers.connection ?? "").toLowerCase() !== "close";
  if (String(headers["transfer-encoding"] ?? "").toLowerCase().includes("chunked")) {
    const parts: Buffer[] = [];
    let at = start;
    for (;;) {
      const lineEnd = buf.indexOf("\r\n", at);
      if (lineEnd === -1) return undefined;
      const size = parseInt(buf.toString("latin1", at, lineEnd), 16);
      if (size === 0) {
        if (buf.length < lineEnd + 4) return undefined; // the last chunk's empty trailer line
        break;
      }
      if (buf.length < lineEnd + 2 + size + 2) return undefined;
      parts.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    return { response: { status, headers, body: Buffer.concat(parts).toString("utf8") }, keepAlive };
  }
  const length = Number(headers["content-length"] ?? 0);
  if (buf.length < start + length) return undefined;
  return { response: { status, headers, body: buf.toString("utf8", start, start + length) }, keepAlive };
}
