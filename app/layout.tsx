import type { Metadata } from "next";
import type { ReactNode } from "react";
import { SiteHeader } from "@/components/layout/site-header";
import { SkipLinks } from "@/components/layout/skip-links";
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
          <SkipLinks />
          <SiteHeader />
          <main id="main" tabIndex={-1} className="mx-auto w-full max-w-screen-2xl px-4 py-6 outline-none sm:px-6">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
