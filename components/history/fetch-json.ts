/** GET a JSON document, throwing the API's error message on a non-2xx answer. */
export async function fetchJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: "application/json" } });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
  }
  return (await response.json()) as T;
}

export function modelApiPath(modelId: string): string {
  return `/api/models/${modelId.split("/").map(encodeURIComponent).join("/")}`;
}
