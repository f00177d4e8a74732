-- The tally keeps each group's model too (dataset, class, provider, model, UTC day), so the spend
-- page's usage by provider and model, by dataset and in all, and the activity reconciliation's
-- imported dollars per day, read it instead of summing every usage record (at a million records
-- those four scans took about 1.7 s a render on the project's machine; they grow with the records).
-- Every function of migration 20261204081411_provenance_tally is the same but for the model, and
-- the tally is recounted from the tables.

ALTER TABLE "ProvenanceTally" ADD COLUMN "modelId" TEXT;

CREATE OR REPLACE FUNCTION "provenance_tally_records_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "ProvenanceTally" (dataset, class, provider, "modelId", day, samples, "inputTokens", "outputTokens", "costUsd")
  SELECT COALESCE(n.dataset, ''), '', n.provider, n."modelId", (n."occurredAt" AT TIME ZONE 'UTC')::date,
         count(*), sum(n."inputTokens"), sum(n."outputTokens"), sum(n."costUsd")
    FROM added n
   GROUP BY 1, 3, 4, 5;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "provenance_tally_records_updated"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  INSERT INTO "ProvenanceTally" (dataset, class, provider, "modelId", day, samples, "inputTokens", "outputTokens", "costUsd")
  SELECT COALESCE(c.dataset, ''), COALESCE(j.class, ''), c.provider, c."modelId", (c."occurredAt" AT TIME ZONE 'UTC')::date,
         sum(c.sign), sum(c.sign * c."inputTokens"), sum(c.sign * c."outputTokens"), sum(c.sign * c."costUsd")
    FROM (SELECT id, dataset, provider, "modelId", "occurredAt", "inputTokens", "outputTokens", "costUsd", -1 AS sign FROM before_change
          UNION ALL
          SELECT id, dataset, provider, "modelId", "occurredAt", "inputTokens", "outputTokens", "costUsd", 1 FROM after_change) c
    LEFT JOIN "ProvenanceJudgement" j ON j."recordId" = c.id
   GROUP BY 1, 2, 3, 4, 5
  HAVING sum(c.sign) <> 0 OR sum(c.sign * c."inputTokens") <> 0 OR sum(c.sign * c."outputTokens") <> 0 OR sum(c.sign * c."costUsd") <> 0;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "provenance_tally_record_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "ProvenanceTally" (dataset, class, provider, "modelId", day, samples, "inputTokens", "outputTokens", "costUsd")
  VALUES (COALESCE(OLD.dataset, ''), COALESCE((SELECT j.class FROM "ProvenanceJudgement" j WHERE j."recordId" = OLD.id), ''), OLD.provider,
          OLD."modelId", (OLD."occurredAt" AT TIME ZONE 'UTC')::date, -1, -OLD."inputTokens", -OLD."outputTokens", -OLD."costUsd");
  RETURN OLD;
END $$;

CREATE OR REPLACE FUNCTION "provenance_tally_judgements_inserted"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  INSERT INTO "ProvenanceTally" (dataset, class, provider, "modelId", day, samples, "inputTokens", "outputTokens", "costUsd")
  SELECT COALESCE(r.dataset, ''), v.class, r.provider, r."modelId", (r."occurredAt" AT TIME ZONE 'UTC')::date,
         sum(v.sign), sum(v.sign * r."inputTokens"), sum(v.sign * r."outputTokens"), sum(v.sign * r."costUsd")
    FROM added j
    JOIN "UsageRecord" r ON r.id = j."recordId"
    CROSS JOIN LATERAL (VALUES ('', -1), (j.class, 1)) AS v(class, sign)
   GROUP BY 1, 2, 3, 4, 5;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "provenance_tally_judgements_updated"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  INSERT INTO "ProvenanceTally" (dataset, class, provider, "modelId", day, samples, "inputTokens", "outputTokens", "costUsd")
  SELECT COALESCE(r.dataset, ''), c.class, r.provider, r."modelId", (r."occurredAt" AT TIME ZONE 'UTC')::date,
         sum(c.sign), sum(c.sign * r."inputTokens"), sum(c.sign * r."outputTokens"), sum(c.sign * r."costUsd")
    FROM (SELECT "recordId", class, -1 AS sign FROM before_change UNION ALL SELECT "recordId", class, 1 FROM after_change) c
    JOIN "UsageRecord" r ON r.id = c."recordId"
   GROUP BY 1, 2, 3, 4, 5
  HAVING sum(c.sign) <> 0 OR sum(c.sign * r."inputTokens") <> 0 OR sum(c.sign * r."outputTokens") <> 0 OR sum(c.sign * r."costUsd") <> 0;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "provenance_tally_judgements_deleted"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  INSERT INTO "ProvenanceTally" (dataset, class, provider, "modelId", day, samples, "inputTokens", "outputTokens", "costUsd")
  SELECT COALESCE(r.dataset, ''), v.class, r.provider, r."modelId", (r."occurredAt" AT TIME ZONE 'UTC')::date,
         sum(v.sign), sum(v.sign * r."inputTokens"), sum(v.sign * r."outputTokens"), sum(v.sign * r."costUsd")
    FROM removed o
    JOIN "UsageRecord" r ON r.id = o."recordId"
    CROSS JOIN LATERAL (VALUES (o.class, -1), ('', 1)) AS v(class, sign)
   GROUP BY 1, 2, 3, 4, 5;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "provenance_tally_recount"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "ProvenanceTally";
  INSERT INTO "ProvenanceTally" (dataset, class, provider, "modelId", day, samples, "inputTokens", "outputTokens", "costUsd")
  SELECT COALESCE(r.dataset, ''), COALESCE(j.class, ''), r.provider, r."modelId", (r."occurredAt" AT TIME ZONE 'UTC')::date,
         count(*), sum(r."inputTokens"), sum(r."outputTokens"), sum(r."costUsd")
    FROM "UsageRecord" r LEFT JOIN "ProvenanceJudgement" j ON j."recordId" = r.id
   GROUP BY 1, 2, 3, 4, 5;
END $$;

SELECT "provenance_tally_recount"();
