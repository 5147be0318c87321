/** One demo for the whole e2e run: started on free ports with fresh data, stopped (Ctrl-C) at the end. */
import type { TestProject } from "vitest/node";
import { startDemo, type DemoUrls } from "./demo";

declare module "vitest" {
  export interface ProvidedContext {
    demo: DemoUrls;
  }
}

export default async function setup(project: TestProject) {
  const demo = await startDemo();
  project.provide("demo", { app: demo.app, sandbox: demo.sandbox, emulator: demo.emulator });
  return async () => {
    const code = await demo.stop();
    if (code !== 0) throw new Error(`the demo did not stop cleanly (exit ${code}):\n${demo.output()}`);
    if (!demo.output().includes("demo: stopped")) throw new Error(`the demo did not say it stopped:\n${demo.output()}`);
  };
}
