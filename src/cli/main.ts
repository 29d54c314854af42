#!/usr/bin/env node
import { Command } from "commander";
import { runCli } from "./run-cli.js";

const program = new Command();
program.name("longhaul").description("Evaluate AI agents on long-horizon work with dense rewards");

// Each command lives in ./commands/<name>.ts and registers itself here.
await runCli(program, process.argv);
