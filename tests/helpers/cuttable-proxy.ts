import { connect, createServer, type Server, type Socket } from "node:net";

// The database going away under a running app: a TCP proxy in front of PostgreSQL, used by the
// integration tests (own-faults) and the browser tests (a server's database lost mid-poll).

/** A TCP proxy in front of PostgreSQL that the test can cut (every connection dropped, new ones refused) and restore. */
export class CuttableProxy {
  private server: Server;
  private sockets = new Set<Socket>();
  private readonly target: URL;
  port = 0;
  /** In front of the PostgreSQL server of this database URL. */
  constructor(databaseUrl: string) {
    this.target = new URL(databaseUrl);
    this.server = this.makeServer();
  }
  private makeServer(): Server {
    return createServer((client) => {
      const upstream = connect(Number(this.target.port || 5432), this.target.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on("close", () => this.sockets.delete(s));
        s.on("error", () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
  }
  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(this.port, "127.0.0.1", resolve));
    this.port = (this.server.address() as { port: number }).port;
  }
  async cut(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
  async restore(): Promise<void> {
    this.server = this.makeServer();
    await this.listen();
  }

  /** The same database URL, through this proxy (once it listens). */
  get url(): string {
    const via = new URL(this.target);
    via.hostname = "127.0.0.1";
    via.port = String(this.port);
    return via.toString();
  }
}
