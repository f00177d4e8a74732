import Link from "next/link";
import { connection } from "next/server";
import { DemoBanner } from "@/components/layout/demo-banner";
import { showsDemoData } from "@/lib/queries/demo";

export default async function NotFound() {
  // Rendered per request, like every page, so its scripts carry the request's CSP nonce.
  await connection();
  const demo = await showsDemoData();
  return (
    <>
    {demo && <DemoBanner />}
    <div className="mx-auto max-w-lg py-16 text-center">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="mt-2 text-slate-600">
        There is nothing at this address. The model may not be watched, or the link may be mistyped.
      </p>
      <Link href="/" className="mt-6 inline-block text-indigo-700 hover:underline">Back to the watched models</Link>
    </div>
    </>
  );
}
