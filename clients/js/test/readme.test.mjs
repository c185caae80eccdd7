// The README's five-line snippet runs as printed, against a live server.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, rmSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { after, before, test } from "node:test";
import { startServer } from "./serve.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
let server;
before(async () => { server = await startServer(); });
after(() => server.child.kill("SIGTERM"));

test("the README's snippet prints a best move in five lines", () => {
  const readme = readFileSync(path.join(here, "..", "README.md"), "utf8");
  const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.equal(blocks.length, 1);
  assert.ok(blocks[0].trim().split("\n").length <= 5, blocks[0]);
  // Run inside the package, which imports itself by its name.
  const file = path.join(here, "..", "readme-snippet.tmp.mjs");
  writeFileSync(file, blocks[0].replace("http://127.0.0.1:8080", server.baseUrl));
  try {
    const out = execFileSync(process.execPath, [file], { encoding: "utf8" });
    assert.match(out, /^rb-0,r0-3 0\.\d{3}\n$/);
  } finally {
    rmSync(file, { force: true });
  }
});
