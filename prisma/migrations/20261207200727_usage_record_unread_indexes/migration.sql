-- The records' indexes on provider and on dataset (from the first schema, before provenance) are
-- read by no query: the provenance page and the spend page read the tally, the export and a
-- dataset's re-judgement filter on COALESCE(dataset, ''), which neither index serves, and a lookup
-- updates its record by id. Each cost every import's insert (two more index entries a record) and
-- their share of the disk.

-- DropIndex
DROP INDEX "UsageRecord_dataset_idx";

-- DropIndex
DROP INDEX "UsageRecord_provider_idx";
