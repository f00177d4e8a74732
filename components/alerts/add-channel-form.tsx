"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { apiFetch } from "@/components/ui/api-fetch";
import { refetchAfterWrite } from "@/components/ui/refetch-after-write";
import { CopyButton } from "@/components/ui/copy-button";
import { fieldClass, Input } from "@/components/ui/input";
import { SubmitButton } from "@/components/ui/submit-button";
import { CHANNEL_KINDS, CHANNELS, type ChannelKind } from "@/lib/alerts/channels";
import { CHANNELS_KEY, type ChannelView } from "./types";

const FIELDS = ["kind", "name", "url", "secret"] as const;
type Field = (typeof FIELDS)[number];

/** "url: must start with http://; name: must not be empty" to a message per field (the rest in general). */
function byField(message: string): { fields: Partial<Record<Field, string>>; general: string | null } {
  const fields: Partial<Record<Field, string>> = {};
  const rest: string[] = [];
  for (const part of message.split("; ")) {
    const match = part.match(/^(\w+): (.*)$/);
    if (match && (FIELDS as readonly string[]).includes(match[1])) fields[match[1] as Field] = match[2];
    else rest.push(part);
  }
  return { fields, general: rest.length ? rest.join("; ") : null };
}

/** Adds a webhook or Slack channel; a generated webhook secret is shown here once. */
export function AddChannelForm() {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<ChannelKind>("webhook");
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [secret, setSecret] = useState("");
  const [shownSecret, setShownSecret] = useState<{ name: string; secret: string } | null>(null);
  const create = useMutation({
    mutationFn: () =>
      apiFetch<{ channel: ChannelView; secret: string | null }>("/api/alerts/channels", {
        method: "POST",
        body: JSON.stringify({ kind, name, url, ...(CHANNELS[kind].signed && secret.trim() ? { secret: secret.trim() } : {}) }),
      }),
    onSuccess: (created) => {
      setShownSecret(created.secret ? { name: created.channel.name, secret: created.secret } : null);
      setName("");
      setUrl("");
      setSecret("");
      void refetchAfterWrite(queryClient, CHANNELS_KEY);
    },
  });
  const errors = create.error ? byField(create.error.message) : { fields: {}, general: null };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setShownSecret(null);
    create.mutate();
  };

  return (
    <div className="space-y-3">
      <form onSubmit={submit} aria-label="Add a channel" noValidate className="grid gap-3 rounded-md border border-slate-200 bg-slate-50 p-3 sm:grid-cols-[10rem_1fr] lg:grid-cols-[9rem_14rem_1fr_14rem_auto] lg:items-start">
        <div>
          <label htmlFor="channel-kind" className="block text-sm font-medium text-slate-700">Kind</label>
          <select id="channel-kind" value={kind} onChange={(e) => setKind(e.target.value as ChannelKind)} className={fieldClass({ roomy: true, className: "mt-1 w-full text-sm" })} aria-invalid={Boolean(errors.fields.kind)}>
            {CHANNEL_KINDS.map((k) => (
              <option key={k} value={k}>{CHANNELS[k].label}</option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="channel-name" className="block text-sm font-medium text-slate-700">Name</label>
          <Input id="channel-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Pipeline ops" roomy className="mt-1 w-full text-sm" aria-invalid={Boolean(errors.fields.name)} aria-describedby="channel-name-error" />
          <FieldError id="channel-name-error" message={errors.fields.name} />
        </div>
        <div className="sm:col-span-2 lg:col-span-1">
          <label htmlFor="channel-url" className="block text-sm font-medium text-slate-700">{CHANNELS[kind].urlLabel}</label>
          <Input
            id="channel-url"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            type="url"
            autoComplete="off"
            placeholder={CHANNELS[kind].urlPlaceholder}
            roomy
            className="mt-1 w-full font-mono text-sm"
            aria-invalid={Boolean(errors.fields.url)}
            aria-describedby="channel-url-error"
          />
          <FieldError id="channel-url-error" message={errors.fields.url} />
        </div>
        {CHANNELS[kind].signed ? (
          <div className="sm:col-span-2 lg:col-span-1">
            <label htmlFor="channel-secret" className="block text-sm font-medium text-slate-700">Signing secret (optional)</label>
            <Input
              id="channel-secret"
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
              type="password"
              autoComplete="new-password"
              placeholder="generated when empty"
              roomy
              className="mt-1 w-full font-mono text-sm"
              aria-invalid={Boolean(errors.fields.secret)}
              aria-describedby="channel-secret-error"
            />
            <FieldError id="channel-secret-error" message={errors.fields.secret} />
          </div>
        ) : (
          <div className="hidden lg:block" />
        )}
        <div className="lg:pt-6">
          <SubmitButton pending={create.isPending} busy="Adding…">Add channel</SubmitButton>
        </div>
        {errors.general && (
          <p role="alert" className="text-sm text-red-700 sm:col-span-2 lg:col-span-5">{errors.general}</p>
        )}
        {create.isError && !errors.general && (
          <p role="alert" className="sr-only">The channel was not added: see the fields marked.</p>
        )}
      </form>
      {shownSecret && (
        <div role="status" aria-label="New signing secret" className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          <p>
            <strong>Signing secret of “{shownSecret.name}”.</strong> Configure your receiver with it now: it is not shown again.
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <code className="break-all rounded bg-white px-2 py-1 font-mono text-xs">{shownSecret.secret}</code>
            <CopyButton text={shownSecret.secret} label="Copy secret" />
            <button type="button" onClick={() => setShownSecret(null)} className="text-sm text-amber-900 underline">
              Done
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="mt-1 text-xs text-red-700">
      {message}
    </p>
  ) : null;
}
