import type { ComponentProps } from "react";

/**
 * The look of a form field: a grey border that turns red, on a red tint, while the field is marked
 * aria-invalid. `roomy` is the taller field of the alert channel form. Selects use the same class.
 */
export function fieldClass({ roomy = false, className }: { roomy?: boolean; className?: string } = {}): string {
  const base = `rounded-md border border-slate-300 px-2 ${roomy ? "py-1.5" : "py-1"} aria-invalid:border-red-400 aria-invalid:bg-red-50`;
  return className ? `${base} ${className}` : base;
}

/** A text field: an <input> with the shared look; `className` adds its width, margin and font. */
export function Input({ roomy, className, ...props }: ComponentProps<"input"> & { roomy?: boolean }) {
  return <input {...props} className={fieldClass({ roomy, className })} />;
}
