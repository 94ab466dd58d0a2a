#!/usr/bin/env node
// `npm run mock [-- --port N] [-- --host H]`: the Prism mock of the generated
// document. Prism itself refuses a second `--port`, so the defaults live here
// and the command line overrides them.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const options = { host: process.env.MOCK_HOST ?? "127.0.0.1", port: process.env.MOCK_PORT ?? "4010" };
const passThrough = [];
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  const [flag, inline] = arg.split("=", 2);
  if (flag === "--port" || flag === "-p" || flag === "--host" || flag === "-h") {
    const value = inline ?? args[++i];
    if (value === undefined) {
      console.error(`mock: ${flag} needs a value`);
      process.exit(1);
    }
    options[flag.replace(/^-+/, "").replace(/^p$/, "port").replace(/^h$/, "host")] = value;
  } else passThrough.push(arg);
}
if (!/^\d+$/.test(options.port) || Number(options.port) > 65535) {
  console.error(`mock: --port ${options.port}: expected a whole number between 0 and 65535`);
  process.exit(1);
}

const prism = path.join(root, "node_modules", ".bin", "prism");
const child = spawn(
  prism,
  [
    "mock",
    path.join(root, "generated", "openapi.json"),
    "--host",
    options.host,
    "--port",
    options.port,
    ...passThrough,
  ],
  {
    stdio: "inherit",
  },
);
// `npm run mock` execs this script, so a signal sent to npm's PID arrives here:
// Prism gets it too, and a stop we asked for is a clean exit (0).
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => {
    stopping = true;
    child.kill(signal);
  });
child.on("exit", (code, signal) => process.exit(stopping ? 0 : (code ?? (signal ? 1 : 0))));
