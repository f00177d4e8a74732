import { connect, createServer, type Server, type Socket } from "node:net";

// The database going away under a running app: a TCP proxy in front of PostgreSQL, used by the
// integration tests (own-faults) and the browser tests (a server's database lost mid-poll).

/** A TCP proxy in front of PostgreSQL that the test can cut (every connection dropped, new ones refused) and restore. */
export class CuttableProxy {
  private server: Server;
  private sockets = new Set<Socket>();
  port = 0;
  constructor(private target: { host: string; port: number }) {
    this.server = this.makeServer();
  }
  private makeServer(): Server {
    return createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
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

  /** The same database URL, through this proxy. */
  urlFor(databaseUrl: string): string {
    const via = new URL(databaseUrl);
    via.hostname = "127.0.0.1";
    via.port = String(this.port);
    return via.toString();
  }
}
