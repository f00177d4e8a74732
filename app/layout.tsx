import type { Metadata } from "next";
import type { ReactNode } from "react";
import { SiteHeader } from "@/components/layout/site-header";
import "./globals.css";
import { Providers } from "./providers";

export const metadata: Metadata = {
  title: { default: "Routeboard", template: "%s · Routeboard" },
  description: "Choose OpenRouter providers by quantization, price and uptime, and watch what they cost.",
  icons: { icon: "/favicon.svg" },
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <Providers>
          {/* The first stop for a keyboard: past the header and its links, straight to the page. */}
          <a
            href="#main"
            className="sr-only rounded-md bg-indigo-700 px-3 py-2 text-sm font-medium text-white shadow focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50"
          >
            Skip to content
          </a>
          <SiteHeader />
          <main id="main" tabIndex={-1} className="mx-auto w-full max-w-screen-2xl px-4 py-6 outline-none sm:px-6">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
