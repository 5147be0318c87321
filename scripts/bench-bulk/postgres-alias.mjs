// Loaded with `--import` after tsx: registers the resolve hook below (see postgres-client.ts).
import { register } from "node:module";

register(new URL("./postgres-alias-hooks.mjs", import.meta.url), { data: { target: process.env.BENCH_POSTGRES_CLIENT } });
