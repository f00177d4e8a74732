-- The provenance page's totals, kept as the records and their judgements are written (issue 21,
-- scale: the page's first render must not scan ten million records). Statement triggers append
-- signed deltas per (dataset, class, provider, UTC day) to "ProvenanceTally"; the application
-- folds them (lib/provenance/tally.ts). A record counts once, under its judgement's class or under
-- "" while it has none. Writers of judgements lock their records first (FOR SHARE, in
-- lib/provenance/rejudge.ts), so a record's update and its judgement's never count each other's
-- old state.

-- CreateTable
CREATE TABLE "ProvenanceTally" (
    "id" BIGSERIAL NOT NULL,
    "dataset" TEXT NOT NULL,
    "class" TEXT NOT NULL,
    "provider" TEXT,
    "day" DATE,
    "samples" BIGINT NOT NULL,
    "inputTokens" DECIMAL(30,0) NOT NULL,
    "outputTokens" DECIMAL(30,0) NOT NULL,
    "costUsd" DECIMAL(30,8) NOT NULL,

    CONSTRAINT "ProvenanceTally_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ProvenanceTally_dataset_idx" ON "ProvenanceTally"("dataset");

-- Records added: each joins its group as not judged yet.
CREATE FUNCTION "provenance_tally_records_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "ProvenanceTally" (dataset, class, provider, day, samples, "inputTokens", "outputTokens", "costUsd")
  SELECT COALESCE(n.dataset, ''), '', n.provider, (n."occurredAt" AT TIME ZONE 'UTC')::date,
         count(*), sum(n."inputTokens"), sum(n."outputTokens"), sum(n."costUsd")
    FROM added n
   GROUP BY 1, 3, 4;
  RETURN NULL;
END $$;
CREATE TRIGGER "provenance_tally_records_inserted" AFTER INSERT ON "UsageRecord"
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION "provenance_tally_records_inserted"();

-- Records changed (a lookup fills the provider, tokens, cost or time): each leaves its old group
-- for its new one, under its judgement's class as it stands now (a record whose counted columns did
-- not change leaves and rejoins the same group: nothing is written).
CREATE FUNCTION "provenance_tally_records_updated"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  INSERT INTO "ProvenanceTally" (dataset, class, provider, day, samples, "inputTokens", "outputTokens", "costUsd")
  SELECT COALESCE(c.dataset, ''), COALESCE(j.class, ''), c.provider, (c."occurredAt" AT TIME ZONE 'UTC')::date,
         sum(c.sign), sum(c.sign * c."inputTokens"), sum(c.sign * c."outputTokens"), sum(c.sign * c."costUsd")
    FROM (SELECT id, dataset, provider, "occurredAt", "inputTokens", "outputTokens", "costUsd", -1 AS sign FROM before_change
          UNION ALL
          SELECT id, dataset, provider, "occurredAt", "inputTokens", "outputTokens", "costUsd", 1 FROM after_change) c
    LEFT JOIN "ProvenanceJudgement" j ON j."recordId" = c.id
   GROUP BY 1, 2, 3, 4
  HAVING sum(c.sign) <> 0 OR sum(c.sign * c."inputTokens") <> 0 OR sum(c.sign * c."outputTokens") <> 0 OR sum(c.sign * c."costUsd") <> 0;
  RETURN NULL;
END $$;
CREATE TRIGGER "provenance_tally_records_updated" AFTER UPDATE ON "UsageRecord"
  REFERENCING OLD TABLE AS before_change NEW TABLE AS after_change FOR EACH STATEMENT EXECUTE FUNCTION "provenance_tally_records_updated"();

-- A record deleted (its import deleted): it leaves its group under the class it has until then.
-- A row trigger, before the delete: the judgement goes with the record (a cascade), and by the
-- time a statement trigger ran neither would be there to say which class to take it from.
CREATE FUNCTION "provenance_tally_record_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "ProvenanceTally" (dataset, class, provider, day, samples, "inputTokens", "outputTokens", "costUsd")
  VALUES (COALESCE(OLD.dataset, ''), COALESCE((SELECT j.class FROM "ProvenanceJudgement" j WHERE j."recordId" = OLD.id), ''), OLD.provider,
          (OLD."occurredAt" AT TIME ZONE 'UTC')::date, -1, -OLD."inputTokens", -OLD."outputTokens", -OLD."costUsd");
  RETURN OLD;
END $$;
CREATE TRIGGER "provenance_tally_record_deleted" BEFORE DELETE ON "UsageRecord"
  FOR EACH ROW EXECUTE FUNCTION "provenance_tally_record_deleted"();

-- Judgements written: a first judgement moves its record from "" to its class; a changed one from
-- the old class to the new (one that keeps its class leaves and rejoins its group: nothing is
-- written). Each record is looked up by its key: the functions forbid hash and merge joins, which a
-- planner may prefer for a batch of 5,000 rows and which read the whole of "UsageRecord" for every
-- batch (a re-judgement of a million records on the embedded engine took 94 s with them, 35 s
-- without a tally). No function joins the two transition tables, which have no index.
CREATE FUNCTION "provenance_tally_judgements_inserted"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  INSERT INTO "ProvenanceTally" (dataset, class, provider, day, samples, "inputTokens", "outputTokens", "costUsd")
  SELECT COALESCE(r.dataset, ''), v.class, r.provider, (r."occurredAt" AT TIME ZONE 'UTC')::date,
         sum(v.sign), sum(v.sign * r."inputTokens"), sum(v.sign * r."outputTokens"), sum(v.sign * r."costUsd")
    FROM added j
    JOIN "UsageRecord" r ON r.id = j."recordId"
    CROSS JOIN LATERAL (VALUES ('', -1), (j.class, 1)) AS v(class, sign)
   GROUP BY 1, 2, 3, 4;
  RETURN NULL;
END $$;
CREATE TRIGGER "provenance_tally_judgements_inserted" AFTER INSERT ON "ProvenanceJudgement"
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION "provenance_tally_judgements_inserted"();

CREATE FUNCTION "provenance_tally_judgements_updated"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  INSERT INTO "ProvenanceTally" (dataset, class, provider, day, samples, "inputTokens", "outputTokens", "costUsd")
  SELECT COALESCE(r.dataset, ''), c.class, r.provider, (r."occurredAt" AT TIME ZONE 'UTC')::date,
         sum(c.sign), sum(c.sign * r."inputTokens"), sum(c.sign * r."outputTokens"), sum(c.sign * r."costUsd")
    FROM (SELECT "recordId", class, -1 AS sign FROM before_change UNION ALL SELECT "recordId", class, 1 FROM after_change) c
    JOIN "UsageRecord" r ON r.id = c."recordId"
   GROUP BY 1, 2, 3, 4
  HAVING sum(c.sign) <> 0 OR sum(c.sign * r."inputTokens") <> 0 OR sum(c.sign * r."outputTokens") <> 0 OR sum(c.sign * r."costUsd") <> 0;
  RETURN NULL;
END $$;
CREATE TRIGGER "provenance_tally_judgements_updated" AFTER UPDATE ON "ProvenanceJudgement"
  REFERENCING OLD TABLE AS before_change NEW TABLE AS after_change FOR EACH STATEMENT EXECUTE FUNCTION "provenance_tally_judgements_updated"();

-- A judgement deleted on its own: its record is not judged any more. (Deleted with its record, the
-- record is gone by now and the record's own trigger has taken it out.)
CREATE FUNCTION "provenance_tally_judgements_deleted"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  INSERT INTO "ProvenanceTally" (dataset, class, provider, day, samples, "inputTokens", "outputTokens", "costUsd")
  SELECT COALESCE(r.dataset, ''), v.class, r.provider, (r."occurredAt" AT TIME ZONE 'UTC')::date,
         sum(v.sign), sum(v.sign * r."inputTokens"), sum(v.sign * r."outputTokens"), sum(v.sign * r."costUsd")
    FROM removed o
    JOIN "UsageRecord" r ON r.id = o."recordId"
    CROSS JOIN LATERAL (VALUES (o.class, -1), ('', 1)) AS v(class, sign)
   GROUP BY 1, 2, 3, 4;
  RETURN NULL;
END $$;
CREATE TRIGGER "provenance_tally_judgements_deleted" AFTER DELETE ON "ProvenanceJudgement"
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION "provenance_tally_judgements_deleted"();

-- Recounted from the tables themselves: here for the records already stored, and after a TRUNCATE
-- (which fires no row or transition triggers).
CREATE FUNCTION "provenance_tally_recount"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "ProvenanceTally";
  INSERT INTO "ProvenanceTally" (dataset, class, provider, day, samples, "inputTokens", "outputTokens", "costUsd")
  SELECT COALESCE(r.dataset, ''), COALESCE(j.class, ''), r.provider, (r."occurredAt" AT TIME ZONE 'UTC')::date,
         count(*), sum(r."inputTokens"), sum(r."outputTokens"), sum(r."costUsd")
    FROM "UsageRecord" r LEFT JOIN "ProvenanceJudgement" j ON j."recordId" = r.id
   GROUP BY 1, 2, 3, 4;
END $$;
CREATE FUNCTION "provenance_tally_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "provenance_tally_recount"();
  RETURN NULL;
END $$;
CREATE TRIGGER "provenance_tally_records_truncated" AFTER TRUNCATE ON "UsageRecord"
  FOR EACH STATEMENT EXECUTE FUNCTION "provenance_tally_truncated"();
CREATE TRIGGER "provenance_tally_judgements_truncated" AFTER TRUNCATE ON "ProvenanceJudgement"
  FOR EACH STATEMENT EXECUTE FUNCTION "provenance_tally_truncated"();

SELECT "provenance_tally_recount"();

-- When a dataset was last computed, for the records judged before that was kept per dataset: the
-- page's "computed at" of a class is the latest of its datasets' (the tally keeps no times).
INSERT INTO "ProvenanceComputed" (dataset, "computedAt")
SELECT COALESCE(r.dataset, ''), max(j."judgedAt")
  FROM "ProvenanceJudgement" j JOIN "UsageRecord" r ON r.id = j."recordId"
 GROUP BY 1
ON CONFLICT (dataset) DO UPDATE SET "computedAt" = GREATEST("ProvenanceComputed"."computedAt", EXCLUDED."computedAt");
