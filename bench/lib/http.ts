import { Agent, request } from "node:http";

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A keep-alive HTTP/1.1 client on node:http. The load generator shares two cores with the server,
 * and node:http costs it about half the CPU per request that fetch (undici) does.
 */
export class HttpClient {
  private readonly agent: Agent;
  private readonly base: URL;

  constructor(
    baseUrl: string,
    private readonly token: string,
    maxSockets = 32,
  ) {
    this.base = new URL(baseUrl);
    this.agent = new Agent({ keepAlive: true, maxSockets });
  }

  request(method: string, path: string, opts: { body?: unknown; headers?: Record<string, string> } = {}): Promise<HttpResponse> {
    const payload = opts.body === undefined ? undefined : typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          agent: this.agent,
          host: this.base.hostname,
          port: this.base.port,
          method,
          path,
          headers: {
            authorization: `Bearer ${this.token}`,
            ...(payload === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }),
            ...opts.headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
  }

  /** Like request, but a status other than `expect` throws with the body. */
  async json<T>(method: string, path: string, expect: number, opts: { body?: unknown; headers?: Record<string, string> } = {}): Promise<T> {
    const res = await this.request(method, path, opts);
    if (res.status !== expect) throw new Error(`${method} ${path}: ${res.status} ${res.body.slice(0, 300)}`);
    return JSON.parse(res.body) as T;
  }

  close(): void {
    this.agent.destroy();
  }
}
