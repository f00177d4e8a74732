/** fetch for our own JSON API: throws an Error carrying the server's message on failure. */
export async function apiFetch<T = unknown>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, {
    ...init,
    headers: { "content-type": "application/json", ...(init.headers ?? {}) },
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: reported below
  }
  if (!response.ok) {
    const message = (body as { error?: { message?: string } } | null)?.error?.message;
    throw new Error(message ?? `The server answered ${response.status}`);
  }
  return body as T;
}

/** The API path of a model, each part of its id encoded. */
export function modelApiPath(modelId: string): string {
  return `/api/models/${modelId.split("/").map(encodeURIComponent).join("/")}`;
}
