import { NextResponse } from "next/server";
import { getDb } from "@/lib/database";
import { guarded } from "@/lib/http";
import { budgetGuard } from "@/lib/keys/budget-guard";
import { managementClient } from "@/lib/openrouter/management-configured";

export const dynamic = "force-dynamic";

/** What a pipeline asks before each batch: may it spend, and if not, why (money as decimal strings). */
export const GET = guarded(async () => {
  const answer = await budgetGuard(await getDb(), managementClient());
  return NextResponse.json(answer, { headers: { "cache-control": "no-store" } });
});
