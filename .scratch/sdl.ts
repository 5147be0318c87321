import { printType, printSchema } from "graphql";
import { adminSchema } from "../emulators/shopify-admin/schema";
const s = adminSchema();
const q = s.getQueryType()!.getFields(); const m = s.getMutationType()!.getFields();
for (const n of ["bulkOperation","currentBulkOperation","bulkOperations","node"]) { const f=q[n]; if (f) console.log("Q", n, f.args.map(a=>`${a.name}:${a.type}`).join(","), "->", String(f.type), f.deprecationReason ?? ""); }
for (const n of ["bulkOperationRunQuery","bulkOperationCancel"]) { const f=m[n]; if (f) console.log("M", n, f.args.map(a=>`${a.name}:${a.type}`).join(","), "->", String(f.type)); }
for (const t of ["BulkOperation","BulkOperationRunQueryPayload","BulkOperationUserError","BulkOperationUserErrorCode","BulkOperationStatus","BulkOperationErrorCode","BulkOperationType"]) console.log(printType(s.getType(t)!));
