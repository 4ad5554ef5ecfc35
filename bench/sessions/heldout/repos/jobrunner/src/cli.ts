#!/usr/bin/env node
import { loadConfig } from "./config.js";
import { deliverWebhook } from "./jobs/webhook.js";
import { makeThumbnail } from "./jobs/thumbnail.js";
import { jsonLogger } from "./logger.js";
import { InMemoryQueue } from "./queue.js";
import { Worker } from "./worker.js";

const USAGE = "usage: jobrunner run [--memory] | jobrunner enqueue <kind> <json>";

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const log = jsonLogger();
  if (command === "run") {
    const config = loadConfig();
    const queue = new InMemoryQueue();
    const worker = new Worker(queue, { webhook: deliverWebhook, thumbnail: makeThumbnail }, log, config);
    process.once("SIGINT", () => worker.stop());
    process.once("SIGTERM", () => worker.stop());
    await worker.start();
    return 0;
  }
  if (command === "enqueue" && rest.length === 2) {
    log.info("enqueue is only wired to the Postgres queue", { kind: rest[0] });
    return 0;
  }
  process.stderr.write(USAGE + "\n");
  return 2;
}

main(process.argv.slice(2)).then((code) => process.exit(code));
