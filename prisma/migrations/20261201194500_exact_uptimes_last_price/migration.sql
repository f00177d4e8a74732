-- Uptimes, latencies and throughputs were 4-byte REALs: a polled 29.8 read back as
-- 29.799999237060547 wherever it was widened to double precision. They become double precision.
-- A REAL cast straight to double keeps that noise, so each value goes through its shortest
-- decimal text, which PostgreSQL (12+, extra_float_digits = 1) prints as the shortest string that
-- reads back as the same REAL: 29.8 stays 29.8, and a value OpenRouter sent with more digits than
-- a REAL holds keeps the ~7 significant digits the REAL kept. Nothing else is lost.
SET LOCAL extra_float_digits = 1;

-- AlterTable
ALTER TABLE "EndpointSample"
  ALTER COLUMN "uptime5m" SET DATA TYPE DOUBLE PRECISION USING "uptime5m"::text::double precision,
  ALTER COLUMN "uptime30m" SET DATA TYPE DOUBLE PRECISION USING "uptime30m"::text::double precision,
  ALTER COLUMN "uptime1d" SET DATA TYPE DOUBLE PRECISION USING "uptime1d"::text::double precision,
  ALTER COLUMN "latencyP50" SET DATA TYPE DOUBLE PRECISION USING "latencyP50"::text::double precision,
  ALTER COLUMN "latencyP90" SET DATA TYPE DOUBLE PRECISION USING "latencyP90"::text::double precision,
  ALTER COLUMN "throughputP50" SET DATA TYPE DOUBLE PRECISION USING "throughputP50"::text::double precision,
  ALTER COLUMN "throughputP90" SET DATA TYPE DOUBLE PRECISION USING "throughputP90"::text::double precision;

-- AlterTable
ALTER TABLE "EndpointHourly"
  ALTER COLUMN "uptime30mMin" SET DATA TYPE DOUBLE PRECISION USING "uptime30mMin"::text::double precision,
  ALTER COLUMN "uptime30mMean" SET DATA TYPE DOUBLE PRECISION USING "uptime30mMean"::text::double precision,
  ALTER COLUMN "uptime30mMax" SET DATA TYPE DOUBLE PRECISION USING "uptime30mMax"::text::double precision,
  ALTER COLUMN "latencyP50Mean" SET DATA TYPE DOUBLE PRECISION USING "latencyP50Mean"::text::double precision,
  ALTER COLUMN "throughputP50Mean" SET DATA TYPE DOUBLE PRECISION USING "throughputP50Mean"::text::double precision,
  ADD COLUMN "inputPriceLast" DECIMAL(14,6),
  ADD COLUMN "outputPriceLast" DECIMAL(14,6);

-- The price in effect at the end of each hour already rolled up: from the hour's raw rows while
-- they are kept; where they are gone, the hour's price when it did not move. An hour whose raw
-- rows are gone and whose price moved keeps no last price (the charts show its max, and say so).
UPDATE "EndpointHourly" h SET
  "inputPriceLast" = coalesce(
    (SELECT s."inputPricePerM" FROM "EndpointSample" s
      WHERE s."endpointId" = h."endpointId" AND s."observedAt" >= h.hour AND s."observedAt" < h.hour + interval '1 hour'
        AND s."inputPricePerM" IS NOT NULL
      ORDER BY s."observedAt" DESC LIMIT 1),
    CASE WHEN h."inputPriceMin" = h."inputPriceMax" THEN h."inputPriceMin" END),
  "outputPriceLast" = coalesce(
    (SELECT s."outputPricePerM" FROM "EndpointSample" s
      WHERE s."endpointId" = h."endpointId" AND s."observedAt" >= h.hour AND s."observedAt" < h.hour + interval '1 hour'
        AND s."outputPricePerM" IS NOT NULL
      ORDER BY s."observedAt" DESC LIMIT 1),
    CASE WHEN h."outputPriceMin" = h."outputPriceMax" THEN h."outputPriceMin" END);
