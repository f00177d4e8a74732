-- An import inserts its records, their judgements and their totals in one statement a batch
-- (lib/usage/import.ts): it knows each record's class before the insert, so it adds each group's
-- totals once, under its class. The triggers on inserted records (which add a group under "" for
-- "not judged yet") and on inserted judgements (which move it from "" to its class, looking every
-- record up again by its key) would count the same rows a second time; they stand aside for a
-- transaction that says it writes the tally itself (`SET LOCAL routeboard.tally_written_by_caller
-- = 'on'`), and for nobody else. Every other write (a re-judgement's judgements, a lookup's record,
-- a deletion, a TRUNCATE) is counted by the triggers as before.

CREATE OR REPLACE FUNCTION "provenance_tally_records_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('routeboard.tally_written_by_caller', true) = 'on' THEN
    RETURN NULL;
  END IF;
  INSERT INTO "ProvenanceTally" (dataset, class, provider, "modelId", day, samples, "inputTokens", "outputTokens", "costUsd")
  SELECT COALESCE(n.dataset, ''), '', n.provider, n."modelId", (n."occurredAt" AT TIME ZONE 'UTC')::date,
         count(*), sum(n."inputTokens"), sum(n."outputTokens"), sum(n."costUsd")
    FROM added n
   GROUP BY 1, 3, 4, 5;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "provenance_tally_judgements_inserted"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  IF current_setting('routeboard.tally_written_by_caller', true) = 'on' THEN
    RETURN NULL;
  END IF;
  INSERT INTO "ProvenanceTally" (dataset, class, provider, "modelId", day, samples, "inputTokens", "outputTokens", "costUsd")
  SELECT COALESCE(r.dataset, ''), v.class, r.provider, r."modelId", (r."occurredAt" AT TIME ZONE 'UTC')::date,
         sum(v.sign), sum(v.sign * r."inputTokens"), sum(v.sign * r."outputTokens"), sum(v.sign * r."costUsd")
    FROM added j
    JOIN "UsageRecord" r ON r.id = j."recordId"
    CROSS JOIN LATERAL (VALUES ('', -1), (j.class, 1)) AS v(class, sign)
   GROUP BY 1, 2, 3, 4, 5;
  RETURN NULL;
END $$;
