// Starts `uckers serve` with its HTTP front on free ports, for the Node tests
// (tests/connect_node, tests/web); resolves with the child process, the
// HTTP port and the web board's URL as the server prints them. `httpPort`
// asks for a given port (a server restarted where the last one was).
import { spawn } from "node:child_process";

export function startHttpServer(uckers, { httpPort = 0 } = {}) {
  const child = spawn(uckers, ["serve", "--address", "127.0.0.1:0", "--http", `127.0.0.1:${httpPort}`]);
  return new Promise((resolve, reject) => {
    let err = "";
    child.stderr.on("data", (chunk) => {
      err += chunk;
      const port = err.match(/Connect \(HTTP\/JSON\) on \S+ \(port (\d+)\)/);
      const url = err.match(/web board at (http:\S+)\n/);
      if (port && url) resolve({ child, port: Number(port[1]), url: url[1] });
    });
    child.on("exit", (code) => reject(new Error(`uckers serve exited ${code}: ${err}`)));
    setTimeout(() => reject(new Error(`no HTTP port in 20 s: ${err}`)), 20000).unref();
  });
}
