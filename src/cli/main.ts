#!/usr/bin/env node
import { Command } from "commander";
import { runCli } from "./run-cli.js";

// A reader that stopped reading (`longhaul world list | head`) ends the output, not the process with a stack.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(0);
  throw e;
});

const program = new Command();
program.name("longhaul").description("Evaluate AI agents on long-horizon work with dense rewards");

// Each command lives in ./commands/<name>.ts and registers itself here.
await runCli(program, process.argv);
