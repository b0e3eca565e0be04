-- The single row the write path bumps to take the next global seq.
INSERT INTO "seq_counter" ("id", "value") VALUES (1, 0) ON CONFLICT ("id") DO NOTHING;
