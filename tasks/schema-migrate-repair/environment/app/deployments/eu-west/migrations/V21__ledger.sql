-- ledger (version 21)
CREATE TABLE t_21 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_21 (note) VALUES ('ledger; rev 0');
INSERT INTO trace (tag) VALUES ('V21');
