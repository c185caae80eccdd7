// Starts `uckers serve --http` on free ports for the tests; $UCKERS names
// the binary (default: build/uckers of the repository).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";

export const uckers = process.env.UCKERS ||
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../build/uckers");

export function startServer() {
  const child = spawn(uckers, ["serve", "--address", "127.0.0.1:0", "--http", "127.0.0.1:0", "--grace_ms", "1000"]);
  return new Promise((resolve, reject) => {
    let err = "";
    child.stderr.on("data", (chunk) => {
      err += chunk;
      const port = err.match(/Connect \(HTTP\/JSON\) on \S+ \(port (\d+)\)/);
      if (port) resolve({ child, baseUrl: `http://127.0.0.1:${port[1]}` });
    });
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`uckers serve exited ${code}: ${err}`)));
    setTimeout(() => reject(new Error(`no HTTP port in 20 s: ${err}`)), 20000).unref();
  });
}
