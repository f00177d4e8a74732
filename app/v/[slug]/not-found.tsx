import Link from "next/link";

export default function SavedViewNotFound() {
  return (
    <div className="mx-auto max-w-lg py-16 text-center">
      <h1 className="text-2xl font-semibold">Saved view not found</h1>
      <p className="mt-2 text-slate-600">
        This short link does not lead to a saved view. It may have been deleted, or the link may be mistyped.
      </p>
      <Link href="/" className="mt-6 inline-block text-indigo-700 hover:underline">Go to the watched models</Link>
    </div>
  );
}
