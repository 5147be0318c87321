import { adminSchema } from "../emulators/shopify-admin/schema";
const s = adminSchema();
const f = s.getQueryType()!.getFields().fulfillmentOrders;
console.log(f?.args.map(a=>`${a.name}:${a.type}`).join(", "));
console.log(f?.args.find(a=>a.name==="query")?.description);
const li = (s.getType("LineItem") as any).getFields();
console.log(Object.keys(li).filter(k=>/fulfill/i.test(k)).map(k=>`${k}: ${li[k].type}`).join("\n"));
