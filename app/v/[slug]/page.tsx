import { notFound, redirect } from "next/navigation";
import { getDb } from "@/lib/database";
import { getView } from "@/lib/saved-views";

export const dynamic = "force-dynamic";

/** A saved view's short link: opens the model page with the view's query. */
export default async function SavedViewPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const view = await getView(await getDb(), slug);
  if (!view) notFound();
  redirect(`/models/${view.modelId}?${view.query}${view.query ? "&" : ""}view=${view.slug}`);
}
