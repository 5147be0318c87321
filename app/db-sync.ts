/**
 * Which writes may commit without waiting for the disk, on SQLite (decision 0219).
 *
 * The app's SQLite connections run every write with `synchronous = FULL`: each commit waits until the write-ahead log
 * is on the disk. A write whose SQL starts with UNSYNCED_WRITE runs with `synchronous = NORMAL` instead: written to
 * the log, it survives the end of the process (a crash, a SIGKILL), and only a power cut or an operating-system crash
 * can lose it, with whatever was committed after it. The log is one file, synced whole, so the next FULL commit, on
 * any connection, makes it durable as well.
 *
 * Only bookkeeping that is done again safely when it is lost carries the mark: the embedded queue's claim, lease
 * renewal, settlement and lapsed-lease sweep, the schedule's tick, a semaphore slot, the Shopify budget, a bulk item's
 * claim and settlement, the day's reference counter, a label's Shopify outcome. Each call that leaves the machine
 * follows a FULL commit of what it depends on: the purchase attempt before a purchase, the claim of a label's Shopify
 * step before its fulfillment. A power cut therefore leaves the database as a SIGKILL at some earlier moment would:
 * at worst just after a call outside whose answer was not yet recorded, which the reconciler and the stuck-step pass
 * already recover from. A statement inside a transaction commits as the transaction does, which is always FULL.
 *
 * PostgreSQL reads the mark as a comment: its commits are unchanged. This module imports nothing, so the SQLite client
 * (loaded by prisma.config.ts before the Prisma client exists) can read the mark; statements take it as `unsynced`
 * from db-direct.server.ts.
 */
export const UNSYNCED_WRITE = "/* unsynced */ ";
