"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";

/**
 * Renders `children` only once this spot comes near the viewport (or is the target of the link's
 * #anchor), showing `placeholder` until then: what is below the fold, and its code, stays out of
 * the page's first load. Once shown, it stays.
 */
export function WhenVisible({
  children,
  placeholder,
  anchor,
  rootMargin = "600px 0px",
}: {
  children: ReactNode;
  placeholder: ReactNode;
  /** An id whose #anchor in the address shows the content at once. */
  anchor?: string;
  rootMargin?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    if (visible) return;
    const element = ref.current;
    if (!element) return;
    if (anchor && window.location.hash === `#${anchor}`) return setVisible(true);
    if (typeof IntersectionObserver === "undefined") return setVisible(true);
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setVisible(true);
    }, { rootMargin });
    observer.observe(element);
    const onHash = () => anchor && window.location.hash === `#${anchor}` && setVisible(true);
    window.addEventListener("hashchange", onHash);
    return () => {
      observer.disconnect();
      window.removeEventListener("hashchange", onHash);
    };
  }, [visible, anchor, rootMargin]);

  return <div ref={ref}>{visible ? children : placeholder}</div>;
}
